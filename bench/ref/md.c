/*
 * md.c: a plain C IDA* with Manhattan distance for the 15-puzzle, the
 * reference for the speed of gapset's Go loop (ida/loops.go, searchMD).
 * Same move order (the blank moves up, left, right, down; never straight
 * back), same counting (a node is expanded when its children are generated;
 * goals are not expanded; the first goal of an iteration ends the search),
 * so the node counts are exactly gapset's. Built only by compare.sh.
 *
 * Input: lines "id t0 t1 ... t15" (0 the blank; # comments). Output per
 * line: id length expanded seconds (search time only).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static int nbrN[16], nbr[16][4];
static signed char delta[16][16][16]; /* delta[tile][from][to] */
static unsigned char tiles[16];
static long long expanded, generated;
static int limit, next;

static int search(int blank, int prev, int g, int h)
{
	expanded++;
	int lim = limit - g - 1;
	for (int i = 0; i < nbrN[blank]; i++) {
		int c = nbr[blank][i];
		if (c == prev)
			continue;
		generated++;
		int t = tiles[c];
		int nh = h + delta[t][c][blank];
		if (nh > lim) {
			if (g + 1 + nh < next)
				next = g + 1 + nh;
			continue;
		}
		tiles[blank] = t;
		tiles[c] = 0;
		if (nh == 0 || search(c, blank, g + 1, nh))
			return 1;
		tiles[c] = t;
		tiles[blank] = 0;
	}
	return 0;
}

static int dist(int tile, int cell)
{
	int home = tile - 1;
	return abs(cell / 4 - home / 4) + abs(cell % 4 - home % 4);
}

int main(void)
{
	for (int c = 0; c < 16; c++) {
		int r = c / 4, k = c % 4;
		if (r > 0) nbr[c][nbrN[c]++] = c - 4;
		if (k > 0) nbr[c][nbrN[c]++] = c - 1;
		if (k < 3) nbr[c][nbrN[c]++] = c + 1;
		if (r < 3) nbr[c][nbrN[c]++] = c + 4;
	}
	for (int t = 1; t < 16; t++)
		for (int a = 0; a < 16; a++)
			for (int i = 0; i < nbrN[a]; i++)
				delta[t][a][nbr[a][i]] = dist(t, nbr[a][i]) - dist(t, a);
	char line[1024];
	while (fgets(line, sizeof line, stdin)) {
		char id[64];
		int v[16], n;
		if (line[0] == '#' || sscanf(line, "%63s%n", id, &n) != 1)
			continue;
		char *p = line + n;
		int blank = -1, h = 0;
		for (int c = 0; c < 16; c++) {
			int used;
			if (sscanf(p, "%d%n", &v[c], &used) != 1) {
				fprintf(stderr, "md: bad line: %s", line);
				return 2;
			}
			p += used;
			tiles[c] = (unsigned char)v[c];
			if (v[c] == 0)
				blank = c;
			else
				h += dist(v[c], c);
		}
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		expanded = generated = 0;
		limit = h;
		int found = h == 0;
		while (!found) {
			next = 1 << 30;
			found = search(blank, -1, 0, h);
			if (!found)
				limit = next;
		}
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double sec = (t1.tv_sec - t0.tv_sec) + (t1.tv_nsec - t0.tv_nsec) / 1e9;
		printf("%s %d %lld %.6f\n", id, limit, expanded, sec);
		fflush(stdout);
	}
	return 0;
}
