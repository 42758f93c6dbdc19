#!/usr/bin/env bash
# Runs sudoku-batch as a worker under Apache Spark (RDD.pipe) and checks that the rows equal a
# local run's, line for line.
#
# Installs pyspark from the Python package registry into a virtual environment under
# target/spark-venv (reused on later runs), starts a local[2] Spark session bound to
# 127.0.0.1, pipes a fixture through
#     sudoku-batch solve - -o - --no-header      (RAYON_NUM_THREADS=1, checkCode=True)
# and compares. Spark feeds each partition to its own process, so each process numbers the
# lines of its partition from 1; the driver maps those back to global line numbers with
# zipWithIndex before comparing with `sudoku-batch solve FILE --no-header`.
#
# Needs Java (Spark runs on the JVM). Without Java it prints SKIPPED and why, and exits 0.
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
cd "$root"

if ! command -v java >/dev/null 2>&1; then
  echo "spark-pipe-test: SKIPPED: no 'java' on PATH; Spark needs a Java runtime (17 works)." >&2
  exit 0
fi

PYSPARK_VERSION=${PYSPARK_VERSION:-3.5.7}
venv="$root/target/spark-venv"
if [ ! -x "$venv/bin/python" ] || ! "$venv/bin/python" -c "import pyspark, sys; sys.exit(pyspark.__version__ != '$PYSPARK_VERSION')" 2>/dev/null; then
  echo "spark-pipe-test: installing pyspark $PYSPARK_VERSION into $venv" >&2
  rm -rf "$venv"
  python3 -m venv "$venv"
  "$venv/bin/pip" install --quiet --disable-pip-version-check "pyspark==$PYSPARK_VERSION"
fi

cargo build --release --quiet --bin sudoku-batch
bin="$root/target/release/sudoku-batch"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# The fixture: valid, multiple-solution, unsolvable and invalid records, comments, blank lines.
for i in 1 2 3 4 5; do
  cat data/mixed.txt data/17clue_200.txt data/serg_100.txt data/top1465_100.txt
done > "$work/fixture.txt"

"$bin" solve "$work/fixture.txt" -o "$work/local.csv" --no-header -q -j1

export SPARK_LOCAL_IP=127.0.0.1
export PYSPARK_PYTHON="$venv/bin/python"
"$venv/bin/python" - "$bin" "$work/fixture.txt" "$work/local.csv" <<'PY'
import csv, io, sys
from pyspark.sql import SparkSession

binary, fixture, local_csv = sys.argv[1:4]
spark = (SparkSession.builder.master("local[2]").appName("sudoku-batch-pipe-test")
         .config("spark.driver.host", "127.0.0.1")
         .config("spark.driver.bindAddress", "127.0.0.1")
         .config("spark.ui.enabled", "false")
         .getOrCreate())
spark.sparkContext.setLogLevel("ERROR")
sc = spark.sparkContext

lines = sc.textFile(fixture, minPartitions=4)
parts = lines.getNumPartitions()
# Global 0-based index of every line, per partition, to map each process's local numbering.
index = lines.zipWithIndex().map(lambda t: t[1]).glom().collect()
piped = lines.pipe(f"{binary} solve - -o - --no-header", checkCode=True,
                   env={"RAYON_NUM_THREADS": "1"}).glom().collect()
assert len(piped) == parts == len(index), (len(piped), parts, len(index))

rows = []
for p, out in enumerate(piped):
    for rec in csv.reader(io.StringIO("\n".join(out) + "\n")):
        local = int(rec[0])
        rec[0] = str(index[p][local - 1] + 1)
        rows.append(rec)
rows.sort(key=lambda r: int(r[0]))
with open(local_csv, newline="") as f:
    want = list(csv.reader(f))
spark.stop()

if rows != want:
    for a, b in zip(rows, want):
        if a != b:
            print("first difference:\n spark:", a, "\n local:", b, file=sys.stderr)
            break
    print(f"spark-pipe-test: FAILED: {len(rows)} Spark rows vs {len(want)} local rows", file=sys.stderr)
    sys.exit(1)
statuses = {}
for r in rows:
    statuses[r[3]] = statuses.get(r[3], 0) + 1
print(f"spark-pipe-test: OK: {len(rows)} rows from {parts} partitions equal the local run ({statuses})")
PY
