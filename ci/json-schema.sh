#!/usr/bin/env bash
# SPDX-License-Identifier: MIT OR Apache-2.0
# Checks every document perfbuf-dump --json writes against
# docs/perfbuf-dump.schema.json (JSON Schema draft 2020-12, validated by
# python3-jsonschema): every file of corpus/ with the format its folder or
# file name gives (as tests/dump_corpus.cmake maps them), and under every
# format for the folders that have no single one, so rejected inputs are
# checked too; the README's first capture pair (--rate, as JSON); the make_series outputs
# with the side files tests/dump_values.cmake gives them; --counter,
# --rate and --series over the --pairing captures (instance churn); and
# --counter paths that match nothing, V1 and V2 by name; --pair-by's
# exited and appeared instances.
#
#   ci/json-schema.sh PERFBUF_DUMP [MAKE_SERIES]
#
# Builds nothing: MAKE_SERIES defaults to tests/make_series beside the
# tools/ folder of PERFBUF_DUMP.
set -euo pipefail
cd "$(dirname "$0")/.."
dump=${1:?usage: ci/json-schema.sh PERFBUF_DUMP [MAKE_SERIES]}
make_series=${2:-$(dirname "$dump")/../tests/make_series}
[ -x "$dump" ] || { echo "json-schema: $dump is not an executable"; exit 2; }
[ -x "$make_series" ] || { echo "json-schema: $make_series is not an executable"; exit 2; }
python3 -c 'import jsonschema' ||
  { echo "json-schema: python3-jsonschema is missing (ci/install-deps.sh installs it)"; exit 2; }

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/series" "$work/cli" "$work/synthetic" "$work/pairing"
"$make_series" "$work/series"
"$make_series" --pairing "$work/pairing"
"$make_series" --cli "$work/cli"
"$make_series" --synthetic "$work/synthetic"

python3 - "$dump" "$work" <<'PY'
import glob
import json
import os
import subprocess
import sys

import jsonschema

dump, work = sys.argv[1], sys.argv[2]
with open("docs/perfbuf-dump.schema.json", encoding="utf-8") as f:
    schema = json.load(f)
jsonschema.Draft202012Validator.check_schema(schema)
validator = jsonschema.Draft202012Validator(schema)

formats = ["v1", "v1-names", "v2-query", "v2-reginfo", "v2-counter", "v2-string",
           "v2-provider-guid", "v2-strings", "v2-countersets", "v2-instances",
           "v2-identifiers"]
# As tests/dump_corpus.cmake: a folder's format, a capture's by its prefix.
folder_formats = {"fuzz_v2_query": "v2-query", "fuzz_v2_query_structured": "v2-query",
                  "fuzz_v1": "v1", "fuzz_v1_structured": "v1", "fuzz_v1_names": "v1-names"}
capture_formats = [("v2-query-", "v2-query"), ("v1-names-", "v1-names"), ("v1-", "v1")]

runs = []  # (arguments, exit statuses allowed)
for folder in sorted(glob.glob("corpus/*/")):
    name = os.path.basename(folder.rstrip("/"))
    if name == "captures":
        continue
    files = sorted(f for f in glob.glob(folder + "*")
                   if os.path.isfile(f) and not f.endswith("README.md"))
    for f in files:
        for fmt in ([folder_formats[name]] if name in folder_formats else formats):
            runs.append((["--format", fmt, f], (0, 1)))
for f in sorted(glob.glob("corpus/captures/**/*.bin", recursive=True)):
    base = os.path.basename(f)
    for prefix, fmt in capture_formats:
        if base.startswith(prefix):
            runs.append((["--format", fmt, f], (0,)))
            break

syn = "corpus/captures/synthetic/"
runs.append((["--names", syn + "v1-names-synthetic-counter-009.bin", "--rate", syn + "v1-synthetic-processor-0.bin",
              syn + "v1-synthetic-processor-1.bin"], (0,)))
runs.append((["--series", syn + "v1-synthetic-processor-0.bin", "--", syn + "v1-synthetic-processor-1.bin"], (0,)))

# --counter selecting by path, and --rate and --series over captures whose
# instances exit, start, swap and shift their #N.
p = work + "/pairing/"
runs.append((["--names", p + "names.bin", "--counter", "\\Process(svchost*)\\% Processor Time",
              "--counter", "\\Process(a)\\ID Process", "--rate", p + "cases-0.bin",
              p + "cases-1.bin"], (0,)))
runs.append((["--rate", p + "cases-0.bin", p + "cases-1.bin"], (0,)))
runs.append((["--rate", p + "churn-0.bin", p + "churn-1.bin"], (0,)))
runs.append((["--series", p + "cases-0.bin", "--", p + "cases-1.bin"], (0,)))
runs.append((["--rate", p + "repeated-0.bin", p + "repeated-1.bin"], (0,)))
# --pair-by: exited instances with a UniqueID, and with a key counter's value.
runs.append((["--rate", p + "uid-0.bin", p + "uid-1.bin", "--pair-by", "unique-id"], (0,)))
c = "corpus/captures/series/"
runs.append((["--names", c + "v1-names-series-counter-009.bin", "--pair-by", "ID Process",
              "--rate", c + "v1-series-1.bin", c + "v1-series-2.bin"], (0,)))
s = work + "/series/"
runs.append((["--rate", s + "s2.bin", s + "s3.bin"], (0,)))
runs.append((["--series", s + "s0.bin", s + "s1.bin", s + "s2.bin", "--", s + "s3.bin"], (0,)))
runs.append((["--format", "v2-query", "--registration", s + "v2-reginfo.bin",
              "--counter-names", s + "v2-names.bin", "--identifiers", s + "v2-ids.bin",
              "--rate", s + "v2-q0.bin", s + "v2-q1.bin"], (0,)))
for reg in ("v2-reginfo-single.bin", "v2-reginfo-size.bin"):
    runs.append((["--format", "v2-query", "--registration", s + reg, s + "v2-q1.bin"], (1,)))
for fmt, f in [("v2-reginfo", "v2-reginfo.bin"), ("v2-counter", "v2-counter.bin"),
               ("v2-string", "v2-name.bin"), ("v2-provider-guid", "v2-provider.bin"),
               ("v2-strings", "v2-names.bin"), ("v2-countersets", "v2-countersets.bin"),
               ("v2-instances", "v2-instances.bin"), ("v2-identifiers", "v2-ids.bin")]:
    runs.append((["--strict", "--format", fmt, s + f], (0,)))
runs.append((["--format", "v2-strings", "--origin", "block", s + "v2-names.bin"], (1,)))
# --counter paths that match nothing: the description, valid false, and an
# error naming the path and its part (V1, and V2 by the counterset's name).
runs.append((["--names", p + "names.bin", "--counter", "\\Process(svchost/0#9)\\% Processor Time",
              "--counter", "\\Process(a)\\ID Process", p + "cases-1.bin"], (1,)))
d = "corpus/captures/documented/"
v2_by_name = ["--format", "v2-query",
              "--registration", d + "v2-reginfo-documented-processor-information.bin",
              "--counter-names", d + "v2-names-documented-processor-information.bin",
              "--counterset-name", d + "v2-counterset-name-documented-processor-information.bin"]
runs.append((v2_by_name + ["--counter", "\\Processor Information(*)\\% Processor Time",
              "--rate", d + "v2-query-documented-processor-information-0.bin",
              d + "v2-query-documented-processor-information-1.bin"], (0,)))
runs.append((v2_by_name + ["--counter", "\\Processor Information(9,9)\\% Processor Time",
              d + "v2-query-documented-processor-information-1.bin"], (1,)))
for f in sorted(glob.glob(work + "/cli/*.bin")):
    if os.path.basename(f).startswith("countersets-"):
        runs.append((["--format", "v2-countersets", f], (1,)))
    else:
        runs.append(([f], (0,)))
for f in sorted(glob.glob(work + "/synthetic/*.bin")):
    runs.append(([f], (0,)))

failed = 0
for args, allowed in runs:
    p = subprocess.run([dump, "--json"] + args, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    where = " ".join(args)
    if p.returncode not in allowed:
        print(f"json-schema: exit {p.returncode} for {where}: {p.stderr.decode(errors='replace')}")
        failed += 1
        continue
    try:
        document = json.loads(p.stdout.decode("utf-8"))
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        print(f"json-schema: not JSON for {where}: {e}")
        failed += 1
        continue
    errors = sorted(validator.iter_errors(document), key=lambda e: list(e.absolute_path))
    if (document.get("valid") is True) != (p.returncode == 0):
        errors.append("'valid' disagrees with the exit status")
    for e in errors[:3]:
        path = "/".join(str(k) for k in getattr(e, "absolute_path", []))
        print(f"json-schema: {where}: /{path}: {getattr(e, 'message', e)}")
    failed += bool(errors)
print(f"json-schema: {len(runs) - failed} of {len(runs)} documents satisfy the schema")
sys.exit(1 if failed else 0)
PY
