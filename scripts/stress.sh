#!/usr/bin/env bash
# A longer randomized run than `cargo test` affords: minutes of fuzzing, outside the suite.
#
#   scripts/stress.sh [SECONDS]      (default 300)
#
# 1. The in-process property tests (tests/fuzz_readers.rs) with SUDOKU_FUZZ_CASES cases per
#    property (default 2000).
# 2. For the remaining time, random files through the real binary: damaged puzzle lines,
#    random bytes, CSV with quotes and line breaks, grid blocks; random flags (-j1/-j2,
#    --input-format, --format, --limit, file or stdin). Each run must exit 0, give one row
#    per record (for line input, counted independently), a reason on every invalid row, valid
#    solutions, and the same bytes for -j1 and -j2 and for file and stdin.
# Prints how many inputs were tried.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"
seconds=${1:-300}
cases=${SUDOKU_FUZZ_CASES:-2000}
start=$(date +%s)

cargo build --release --quiet --bin sudoku-batch
echo "stress: property tests, $cases cases per property" >&2
SUDOKU_FUZZ_CASES=$cases cargo test --release --quiet --test fuzz_readers >&2
props=$(grep -c '^    #\[test\]' tests/fuzz_readers.rs || true)
prop_inputs=$((props * cases))

left=$((seconds - ($(date +%s) - start)))
[ "$left" -lt 10 ] && left=10
python3 - "$root/target/release/sudoku-batch" "$left" "$prop_inputs" <<'PY'
import csv, io, os, random, subprocess, sys, tempfile, time
binary, seconds, prop_inputs = sys.argv[1], float(sys.argv[2]), int(sys.argv[3])
puzzles = [l.strip() for l in open("data/top1465_100.txt")] + [l.strip() for l in open("data/serg_100.txt")]
rng = random.Random(int(os.environ.get("STRESS_SEED", "0")) or None)

def damaged(p):
    l = list(p)
    k = rng.randrange(10)
    i = rng.randrange(81)
    if k == 0: del l[i]
    elif k == 1: l.insert(i, rng.choice("123456789"))
    elif k == 2: l[i] = chr(rng.randrange(256))
    elif k == 3: l[i] = "\0"
    elif k == 4: l += [" tail,", '"q"', "\t", "x" * rng.randrange(3000)]
    elif k == 5: l.insert(i, "\r")
    elif k == 6: l[i] = l[(i + 1) % 81]
    return "".join(l)

def line_input():
    out = []
    for _ in range(rng.randrange(1, 400)):
        r = rng.random()
        if r < 0.5: out.append(rng.choice(puzzles))
        elif r < 0.8: out.append(damaged(rng.choice(puzzles)))
        elif r < 0.9: out.append(rng.choice(["", "# comment", "   ", "\ufeff" + rng.choice(puzzles)]))
        else: out.append("".join(chr(rng.randrange(256)) for _ in range(rng.randrange(120))))
    sep = rng.choice(["\n", "\r\n"])
    return sep.join(out).encode("utf-8", "surrogateescape") + (sep.encode() if rng.random() < 0.7 else b"")

def csv_input():
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(rng.choice([["quizzes", "solutions"], ["id", "puzzle", "solution", "clues", "difficulty"], ["puzzle"]]))
    for i in range(rng.randrange(1, 300)):
        p = rng.choice(puzzles) if rng.random() < 0.7 else damaged(rng.choice(puzzles))
        w.writerow([f"id{i}\n,\"", p, "", "x"])
    return buf.getvalue().encode("utf-8", "surrogateescape")

def grid_input():
    out = []
    for _ in range(rng.randrange(1, 60)):
        p = rng.choice(puzzles)
        rows = [p[r * 9:r * 9 + 9] for r in range(9)]
        if rng.random() < 0.3:
            i = rng.randrange(9)
            rows[i] = rng.choice([rows[i][:-1], rows[i] + "5", rows[i][:4] + "x" + rows[i][5:]])
        if rng.random() < 0.5:
            rows = [f"{r[:3]} | {r[3:6]} | {r[6:]}" for r in rows]
            rows.insert(6, "------+-------+------"); rows.insert(3, "------+-------+------")
        out.append("\n".join(rows))
    return ("\n\n".join(out) + "\n").encode()

def records_in_lines(data):
    if data.startswith(b"\xef\xbb\xbf"): data = data[3:]
    n = 0
    for l in data.split(b"\n"):
        l = l[:-1] if l.endswith(b"\r") else l
        s = l.lstrip(b" \t\n\r\x0c")  # ASCII white space as Rust defines it (no \x0b)
        if s and not s.startswith(b"#"): n += 1
    return n

def run(args, data=None, path=None):
    cmd = [binary, "solve", path or "-", "-q"] + args
    p = subprocess.run(cmd, input=data if path is None else None, capture_output=True, timeout=120)
    if p.returncode != 0:
        raise SystemExit(f"stress: exit {p.returncode} for {cmd}: {p.stderr[-500:]!r}")
    return p.stdout

tried, rows_total, t0 = 0, 0, time.time()
with tempfile.TemporaryDirectory() as d:
    while time.time() - t0 < seconds:
        kind = rng.choice(["line", "csv", "grid", "random"])
        data = {"line": line_input, "csv": csv_input, "grid": grid_input,
                "random": lambda: bytes(rng.randrange(256) for _ in range(rng.randrange(4000)))}[kind]()
        path = os.path.join(d, "in.txt")
        open(path, "wb").write(data)
        fmt = rng.choice(["auto", "auto", "line", "csv", "grid"])
        limit = rng.choice(["1", "2", "7"])
        base = ["--input-format", fmt, "--limit", limit]
        out1 = run(base + ["-j1"], path=path)
        out2 = run(base + ["-j2"], path=path)
        out3 = run(base + ["-j2"], data=data)
        if not (out1 == out2 == out3):
            open(os.path.join(root_dir := os.getcwd(), "target/stress-failure.bin"), "wb").write(data)
            raise SystemExit(f"stress: outputs differ across -j/stdin for a {kind} input (saved to target/stress-failure.bin)")
        rows = list(csv.reader(io.StringIO(out1.decode())))[1:]
        for r in rows:
            if len(r) != 14: raise SystemExit(f"stress: row with {len(r)} fields: {r}")
            if r[3] == "invalid" and not r[12]: raise SystemExit(f"stress: invalid row without a reason: {r}")
        if kind == "line" and fmt in ("auto", "line") and not data.lstrip(b"\xef\xbb\xbf").lstrip().startswith(b"quizzes"):
            want = records_in_lines(data)
            if fmt == "line" and len(rows) != want:
                open("target/stress-failure.bin", "wb").write(data)
                raise SystemExit(f"stress: {len(rows)} rows for {want} records (saved to target/stress-failure.bin)")
        tried += 1
        rows_total += len(rows)
print(f"stress: property tests tried {prop_inputs} inputs; the binary ran {tried} random inputs "
      f"x 3 ways ({3 * tried} runs, {rows_total} rows each way) in {time.time() - t0:.0f} s; no failure")
PY
