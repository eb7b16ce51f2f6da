#!/usr/bin/env bash
# threads.sh: solve --threads 2 against --threads 1 with the 7-8 pattern
# databases, interleaved in one run (1, 2, 2, 1, ...): the transposed goal,
# the 80-move position and the ten Korf instances with the most pdb78 nodes.
# (ids 1001: the transposed goal, 1002: the 80-move position.)
# Prints per instance the median search seconds of each, their ratio, and
# for the two hard boards the process wall time (loading included).
# Run it on a quiet machine (on the shared one: under flock /tmp/gapset-heavy.lock).
#
#   bench/threads.sh PDB78_DIR [ROUNDS]      (default: 5 rounds)
set -euo pipefail
cd "$(dirname "$0")/.."
pdb=${1:?usage: bench/threads.sh PDB78_DIR [ROUNDS]}
rounds=${2:-5}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
go build -o "$tmp/gapset" ./cmd/gapset
{
	echo "1001 1 5 9 13 2 6 10 14 3 7 11 15 4 8 12 0"
	echo "1002 0 12 9 13 15 11 10 14 3 7 2 5 4 8 6 1"
	grep -E '^(82|88|60|3|32|76|40|41|17|98) ' data/korf100.txt
} >"$tmp/inst.txt"

solve() { # threads, input file, label
	/usr/bin/time -f "wall %e" -o "$tmp/time" "$tmp/gapset" solve -q --threads "$1" -H pdb78 --pdb "$pdb" -f json -i "$2" |
		sed -E 's/.*"id":"([^"]*)".*"length":([0-9]+).*"nodes":([0-9]+).*"seconds":([0-9.e-]+).*/\1 \2 \3 \4/' >>"$tmp/t$1"
	echo "$3 $(cut -d' ' -f2 "$tmp/time")" >>"$tmp/wall$1"
}
head -1 "$tmp/inst.txt" >"$tmp/a.txt"
sed -n 2p "$tmp/inst.txt" >"$tmp/b.txt"
tail -n +3 "$tmp/inst.txt" >"$tmp/c.txt"
for r in $(seq "$rounds"); do
	order="1 2"
	((r % 2)) || order="2 1"
	for t in $order; do
		solve "$t" "$tmp/a.txt" 1001
		solve "$t" "$tmp/b.txt" 1002
		solve "$t" "$tmp/c.txt" korf10
	done
	echo "round $r done" >&2
done
median() { sort -g | awk '{v[NR] = $1} END {print (NR % 2) ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
printf "%-10s %6s %12s %12s %10s %10s %8s\n" id length nodes1 nodes2 sec1 sec2 speedup
for id in $(cut -d' ' -f1 "$tmp/inst.txt"); do
	l1=$(awk -v i="$id" '$1 == i {print $2}' "$tmp/t1" | sort -u | tr '\n' ' ')
	l2=$(awk -v i="$id" '$1 == i {print $2}' "$tmp/t2" | sort -u | tr '\n' ' ')
	[ "$l1" = "$l2" ] || { echo "$id: lengths differ: $l1 / $l2" >&2; exit 1; }
	n1=$(awk -v i="$id" '$1 == i {print $3}' "$tmp/t1" | median)
	n2=$(awk -v i="$id" '$1 == i {print $3}' "$tmp/t2" | median)
	s1=$(awk -v i="$id" '$1 == i {print $4}' "$tmp/t1" | median)
	s2=$(awk -v i="$id" '$1 == i {print $4}' "$tmp/t2" | median)
	printf "%-10s %6s %12s %12s %10.3f %10.3f %8.2f\n" "$id" "$l1" "$n1" "$n2" "$s1" "$s2" "$(awk -v a="$s1" -v b="$s2" 'BEGIN {print a / b}')"
done
for id in 1001 1002; do
	w1=$(awk -v i="$id" '$1 == i {print $2}' "$tmp/wall1" | median)
	w2=$(awk -v i="$id" '$1 == i {print $2}' "$tmp/wall2" | median)
	echo "$id process wall (median): 1 thread $w1 s, 2 threads $w2 s, speed-up $(awk -v a="$w1" -v b="$w2" 'BEGIN {printf "%.2f", a / b}')"
done
