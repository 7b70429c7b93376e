# SPDX-License-Identifier: MIT OR Apache-2.0
cmake_minimum_required(VERSION 3.25)
# perfbuf-dump's work grows with its input and no faster, on the inputs
# where searching per item made it quadratic (tests/make_adversarial_dump.c):
# each case runs the counted tool on inputs of size n and 8n and fails when
# the work of 8n is more than 9 times that of n (a quadratic path gives
# about 64), or less than 4 times (the input did not grow: the check would
# prove nothing). What the tool shows at size n is checked too.
# Inputs: -DDUMP=<perfbuf-dump-counted> -DMAKE=<make_adversarial_dump>
#         -DDIR=<scratch folder>
set(failed 0)
set(passed 0)
macro(expect what got want)
  if("${got}" STREQUAL "${want}")
    math(EXPR passed "${passed} + 1")
  else()
    message("FAIL ${what}: got '${got}', want '${want}'")
    math(EXPR failed "${failed} + 1")
  endif()
endmacro()

foreach(scale 1 8)
  file(MAKE_DIRECTORY ${DIR}/${scale})
  execute_process(COMMAND ${MAKE} ${DIR}/${scale} ${scale} RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "make_adversarial_dump ${scale} failed")
  endif()
endforeach()

# The cases over children of a long parent read v1-children-4k, whose
# parent is past the cuts of a full name and of an array name's parent
# part at every scale: over v1-children (a parent of 1,000 x SCALE
# characters) what the tool writes per child grows with the scale until
# the cuts, so the output, and the work of writing it, would grow faster
# than the input whatever the tool does.
# name | exit status | arguments (@ is the folder of the inputs) | most
# (the largest work(8n) / work(n) allowed, 9 when not given: 10.5 where the
# tool sorts, for the log factor; --openmetrics sorts its points)
set(cases
    "v1-parents|0|--format v1 @/v1-parents.bin"
    "v1-rate|0|--format v1 --rate @/v1-rate-prev.bin @/v1-rate.bin"
    "v1-long-parents|1|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(PA/c)\\\\Count @/v1-long-parents.bin|10.5"
    "v1-long-parents-csv|1|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(PA/c)\\\\Count --csv @/v1-long-parents.bin|10.5"
    "v1-objects-rate|0|--format v1 --rate @/v1-objects-prev.bin @/v1-objects.bin|10.5"
    # Every child of the earlier capture exited and every process of the
    # later one appeared: the lists of both (--rate), their exited runs
    # found by title (a sort, hence 10.5).
    "v1-turnover|0|--format v1 --rate @/v1-children-4k-prev.bin @/v1-rate.bin|10.5"
    "v1-rate-pair-by|0|--format v1 --names @/v1-rate-names.bin --pair-by ID --rate @/v1-rate-prev.bin @/v1-rate.bin|10.5"
    "v1-counter|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\Count --counter \\\\Thread(*)\\\\* --rate @/v1-rate-prev.bin @/v1-rate.bin"
    "v1-csv|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\* --csv --rate @/v1-rate-prev.bin @/v1-rate.bin"
    "v1-same-csv|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(svchost*)\\\\ID --counter \\\\process(svchost#7)\\\\id --csv @/v1-same.bin|10.5"
    "v1-series|0|--format v1 --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
    "v1-series-csv|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\* --csv --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin|10.5"
    "v1-series-counter|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\* --series @/v1-series-0.bin @/v1-series-1.bin -- @/v1-series.bin"
    "v1-counter-none|1|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(nope)\\\\Count @/v1-children.bin"
    "v1-children-4k-rate|0|--format v1 --rate @/v1-children-4k-prev.bin @/v1-children-4k.bin"
    "v1-children-4k-counter|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\Count @/v1-children-4k.bin"
    "v1-children-4k-csv|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\* --csv --rate @/v1-children-4k-prev.bin @/v1-children-4k.bin"
    "v1-children-4k-csv-series|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\* --csv --series @/v1-children-4k-prev.bin -- @/v1-children-4k.bin"
    "v1-collide-csv|0|--format v1 --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\ID --csv --series @/v1-collide.bin -- @/v1-collide.bin|10.5"
    "v2-identifiers|0|--format v2-query --registration @/v2-reginfo.bin --identifiers @/v2-ids-ids.bin @/v2-ids.bin"
    "v2-rate|0|--format v2-query --registration @/v2-reginfo.bin --rate @/v2-rate-prev.bin @/v2-rate.bin"
    "v2-counter|0|--format v2-query --registration @/v2-reginfo.bin --counter \\\\{b4fc721a-0378-476f-89ba-a5a79f810b36}(*)\\\\3 --rate @/v2-rate-prev.bin @/v2-rate.bin|10.5"
    "v2-counter-miss|1|--format v2-query --registration @/v2-reginfo.bin --counter \\\\{b4fc721a-0378-476f-89ba-a5a79f810b36}(nope)\\\\0 @/v2-rate.bin|10.5"
    "v2-names|0|--format v2-query --registration @/v2-reginfo.bin --counter-names @/v2-names-strings.bin @/v2-names.bin"
    "v2-unordered|0|--format v2-query --registration @/v2-unordered-reginfo.bin --counter-names @/v2-unordered-strings.bin @/v2-unordered.bin"
    "v2-reginfo|0|--format v2-reginfo @/v2-unordered-reginfo.bin"
    "v2-strings|0|--format v2-strings @/v2-unordered-strings.bin"
    "v2-overlap|1|--format v2-strings @/v2-overlap.bin"
    "v2-wide-rate|0|--format v2-query --registration @/v2-wide-reginfo.bin --rate @/v2-wide-prev.bin @/v2-wide.bin"
    "v2-wide-desc-rate|0|--format v2-query --registration @/v2-wide-desc-reginfo.bin --rate @/v2-wide-desc-prev.bin @/v2-wide-desc.bin|10.5"
    "v1-rate-openmetrics|0|--format v1 --openmetrics @/v1-rate.bin|10.5"
    "v1-same-openmetrics|0|--format v1 --openmetrics --names @/v1-rate-names.bin @/v1-same.bin|10.5"
    "v1-collide-openmetrics|0|--format v1 --openmetrics --names @/v1-rate-names.bin @/v1-collide.bin|10.5"
    "v1-objects-openmetrics|0|--format v1 --openmetrics @/v1-objects.bin|10.5"
    "v1-parents-openmetrics|0|--format v1 --openmetrics @/v1-parents.bin|10.5"
    "v1-counter-openmetrics|0|--format v1 --openmetrics --names @/v1-rate-names.bin --counter \\\\Process(*)\\\\Count @/v1-rate.bin|10.5")

# name | JSON path at size n (/-separated) | expected value; LENGTH: its length
set(checks
    "v1-parents|objects/1/instances/1/full_name|p999/c1"
    "v1-parents|objects/1/instances/0/full_name|c0"
    "v1-long-parents|objects/0/name|Process"
    "v1-rate|objects/0/instances/0/formatted/1|invalid-data"
    "v1-turnover|objects/0/exited/249/identity|name"
    "v1-turnover|objects/0/appeared/2499/identity|name"
    "v1-rate-pair-by|objects/0/appeared/0/identity|ID"
    "v1-rate-pair-by|objects/0/instances/1/formatted/1|5.000000"
    "v1-objects-rate|objects/0/instances/0/pairing|matched"
    "v1-objects-rate|objects/499/instances/0/pairing|matched"
    "v1-objects-rate|objects/499/instances/0/formatted/0|5.000000"
    "v1-rate|objects/0/instances/0/formatted/0|0.000000"
    "v1-rate|objects/0/instances/0/pairing|new"
    "v1-rate|objects/0/instances/1/pairing|matched"
    "v1-rate|objects/0/instances/1/previous_position|0"
    "v1-rate|objects/0/instances/1/formatted/1|5.000000"
    "v1-rate|objects/0/instances/2499/formatted/1|5.000000"
    "v1-rate|objects/1/instances/3/formatted/1|5.000000"
    "v1-rate|objects/2/instances/0/formatted/7|5.000000"
    "v1-rate|objects/3/formatted/0|5.000000"
    "v1-counter|objects/0/instances/0/full_name|i0"
    "v1-counter|objects/0/counters/0/name|Count"
    "v1-counter|objects/0/counters/1|(expected an index less than 1 got '1')"
    "v1-counter|objects/1/instances/0/formatted/1|5.000000"
    "v1-counter|objects/1/name|Thread"
    "v1-series|objects/0/instances/7/statistics/1/count|2"
    "v1-series|objects/0/instances/7/statistics/1/mean|5.000000"
    "v1-series-counter|objects/0/name|Process"
    "v1-series-counter|objects/0/instances/7/statistics/0/mean|7.000000"
    "v1-series-counter|objects/0/instances/7/statistics/1/count|2"
    "v1-counter-none|error/field|Instance"
    "v1-children-4k-rate|objects/1/instances/0/full_name_cut|ON"
    "v1-children-4k-rate|objects/1/instances/248/previous_position|248"
    "v1-children-4k-rate|objects/1/instances/248/formatted/1|6.000000"
    "v1-children-4k-counter|objects/0/instances/248/values/0|1249"
    "v2-identifiers|crosscheck/agree|ON"
    "v2-identifiers|blocks/3/instances/1/values/0/counter_id|7"
    "v2-identifiers|blocks/3/instances/1/values/0/counter_type_name|PERF_COUNTER_RAWCOUNT"
    "v2-rate|blocks/0/instances/0/values/0/formatted|invalid-data"
    "v2-rate|blocks/0/instances/0/values/1/formatted|0.000000"
    "v2-rate|blocks/0/instances/0/pairing|new"
    "v2-rate|blocks/0/instances/1/pairing|matched"
    "v2-rate|blocks/0/instances/1/previous_position|0"
    "v2-rate|blocks/0/instances/1/values/0/formatted|5.000000"
    "v2-rate|blocks/0/instances/999/values/0/formatted|5.000000"
    "v2-rate|blocks/1/instances/1/values/0/formatted|5.000000"
    "v2-counter|blocks/0/instances/999/values/0/formatted|5.000000"
    "v2-counter|blocks/0/instances/999/values/0/counter_id|3"
    "v2-counter-miss|error/field|Instance"
    "v2-names|blocks/0/instances/5/values/0/counter_id|7"
    "v2-names|counter_names/1/name|LENGTH 2000"
    "v2-unordered|crosscheck/agree|ON"
    "v2-unordered|blocks/0/instances/0/values/0/counter_id|63"
    "v2-unordered|counter_names/63/name|c63"
    "v2-unordered|blocks/0/instances/3/values/63/value|300"
    "v2-reginfo|counters/0/counter_id|63"
    "v2-strings|strings/0/text|c63"
    "v2-overlap|error/status|PERFBUF_E_OVERLAP"
    "v2-wide-rate|blocks/0/instances/0/values/0/formatted|5.000000"
    "v2-wide-rate|blocks/0/instances/0/values/499/formatted|5.000000"
    "v2-wide-rate|blocks/0/instances/0/values/499/counter_id|499"
    "v2-wide-desc-rate|blocks/0/instances/0/values/0/counter_id|499"
    "v2-wide-desc-rate|blocks/0/instances/0/values/0/formatted|5.000000"
    "v2-wide-desc-rate|blocks/0/instances/0/values/499/formatted|5.000000")

set(ENV{PERFBUF_DUMP_PRINT_WORK} 1)
foreach(case IN LISTS cases)
  string(REPLACE "|" ";" parts "${case}")
  list(GET parts 0 name)
  list(GET parts 1 want_rc)
  list(GET parts 2 args)
  set(most_ratio 90)
  list(LENGTH parts fields)
  if(fields GREATER 3)
    list(GET parts 3 ratio)
    string(REPLACE "." "" most_ratio "${ratio}")
  endif()
  foreach(scale 1 8)
    string(REPLACE "@" "${DIR}/${scale}" scaled "${args}")
    separate_arguments(scaled UNIX_COMMAND "${scaled}")
    # --csv writes CSV and --openmetrics its text, not JSON.
    set(mode --json)
    if(args MATCHES "--csv|--openmetrics")
      set(mode "")
    endif()
    execute_process(COMMAND ${DUMP} ${mode} ${scaled}
                    RESULT_VARIABLE rc OUTPUT_VARIABLE json ERROR_VARIABLE err)
    expect("${name} x${scale} exit" "${rc}" "${want_rc}")
    if(err MATCHES "rejected")
      message("FAIL ${name} x${scale}: a side file was rejected: ${err}")
      math(EXPR failed "${failed} + 1")
    endif()
    if(NOT err MATCHES "perfbuf-dump: work ([0-9]+)")
      message(FATAL_ERROR "${name}: the counted tool printed no work: ${err}")
    endif()
    set(work_${scale} ${CMAKE_MATCH_1})
    if(scale EQUAL 1)
      set(json_${name} "${json}")
    endif()
  endforeach()
  # most_ratio is tenths: 90 is 9x.
  math(EXPR most "${most_ratio} * ${work_1} / 10")
  math(EXPR least "4 * ${work_1}")
  message("${name}: work ${work_1} at n, ${work_8} at 8n")
  if(work_8 GREATER most)
    message("FAIL ${name}: work grows faster than the input (${work_1} -> ${work_8})")
    math(EXPR failed "${failed} + 1")
  elseif(work_8 LESS least)
    message("FAIL ${name}: the inputs did not grow (${work_1} -> ${work_8})")
    math(EXPR failed "${failed} + 1")
  else()
    math(EXPR passed "${passed} + 1")
  endif()
endforeach()

foreach(check IN LISTS checks)
  string(REPLACE "|" ";" parts "${check}")
  list(GET parts 0 name)
  list(GET parts 1 path)
  list(GET parts 2 want)
  string(REPLACE "/" ";" keys "${path}")
  string(JSON got ERROR_VARIABLE json_error GET "${json_${name}}" ${keys})
  if(json_error)
    set(got "(${json_error})")
  elseif(want MATCHES "^LENGTH ")
    string(LENGTH "${got}" got)
    set(got "LENGTH ${got}")
  endif()
  expect("${name} ${path}" "${got}" "${want}")
endforeach()

message("${passed} passed, ${failed} failed")
if(failed GREATER 0)
  message(FATAL_ERROR "${failed} checks failed")
endif()
