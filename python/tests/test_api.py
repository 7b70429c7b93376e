# SPDX-License-Identifier: MIT OR Apache-2.0
"""The package's API over the synthetic captures, whose values are documented
(corpus/captures/synthetic/README.md): 75 %, 10 % and 42.5 % busy processors,
svchost processes at 15 % and 5 %."""
import gc
import struct

import pytest

import perfbuf
from conftest import read

NEWER = "synthetic/v1-synthetic-processor-1.bin"
OLDER = "synthetic/v1-synthetic-processor-0.bin"
NAMES = "synthetic/v1-names-synthetic-counter-009.bin"


@pytest.fixture
def pair():
    return perfbuf.parse_v1(read(NEWER)), perfbuf.parse_v1(read(OLDER))


@pytest.fixture
def names():
    return perfbuf.parse_names(read(NAMES))


@pytest.mark.parametrize("wrap", [bytes, bytearray, memoryview,
                                  lambda b: memoryview(bytearray(b))])
def test_every_buffer_type_gives_the_same_capture(wrap):
    cap = perfbuf.parse_v1(wrap(read(NEWER)))
    assert cap.system_name == "SYNTHETIC"
    assert [o.name_title_index for o in cap.objects] == [238, 230]
    proc = cap.objects[0]
    assert [i.full_name for i in proc.instances] == ["0", "1", "_Total"]
    assert [c.type_name for c in proc.counters] == ["PERF_100NSEC_TIMER_INV"]


def test_a_memoryview_slice_is_read_where_it_starts():
    data = b"\xAA" * 8 + read(NEWER)
    cap = perfbuf.parse_v1(memoryview(data)[8:])
    assert cap.size == len(data) - 8
    assert cap.objects[1].instances[1].values == [31500000, 812]


def test_the_bytes_are_not_copied():
    data = bytearray(read(NEWER))
    cap = perfbuf.parse_v1(data)
    inst = cap.objects[1].instances[1]
    offset, _ = inst.counter_block
    counter = cap.objects[1].counters[1]
    at = offset + counter.counter_offset
    assert struct.unpack_from("<I", data, at)[0] == inst.values[1] == 812
    # A change after validation is what a view then reads: the capture reads
    # the caller's memory, not a copy of it.
    struct.pack_into("<I", data, at, 813)
    assert inst.values[1] == 813


def test_a_bytearray_cannot_be_resized_under_a_capture():
    data = bytearray(read(NEWER))
    cap = perfbuf.parse_v1(data)
    with pytest.raises(BufferError):
        data.extend(b"\0" * 4096)
    del cap
    gc.collect()
    data.extend(b"\0" * 8)  # released with the capture


def test_views_keep_their_bytes_alive():
    inst = perfbuf.parse_v1(bytes(read(NEWER))).objects[1].instances[2]
    gc.collect()
    for _ in range(100):
        bytes(len(read(NEWER)))  # let freed memory be reused
    assert inst.full_name == "svchost"
    assert inst.values == [30500000, 1044]
    assert inst.capture.data == read(NEWER)


def test_a_view_of_another_capture_is_refused(pair):
    newer, older = pair
    with pytest.raises(perfbuf.PerfbufError) as e:
        newer.objects[0].raw_sample(older.objects[0].counters[0], older.objects[0].instances[0])
    assert e.value.status_name == "PERFBUF_E_INVALID_ARGUMENT"
    with pytest.raises(perfbuf.PerfbufError):
        perfbuf.format_v1(newer.objects[0], older.objects[0], older.objects[0].instances[0],
                          older.objects[0].instances[0])


def test_rejection_carries_where_and_why():
    data = bytearray(read(NEWER))
    struct.pack_into("<I", data, 20, 0x7FFFFFF0)  # TotalByteLength past the bytes
    with pytest.raises(perfbuf.PerfbufError) as e:
        perfbuf.parse_v1(data)
    err = e.value
    assert (err.offset, err.structure, err.field) == (20, "PERF_DATA_BLOCK", "TotalByteLength")
    assert err.status_name == "PERFBUF_E_SIZE_EXCEEDS_RECEIVED"
    assert str(err) == ("offset 0x14: PERF_DATA_BLOCK.TotalByteLength: "
                        "the declared total size is larger than the bytes received")
    assert (err.declared, err.limit) == (0x7FFFFFF0, len(data))


def test_rejection_below_a_least_value_carries_it():
    data = bytearray(read(NEWER))
    struct.pack_into("<II", data, 80, 2, 8)  # a system name inside PERF_DATA_BLOCK itself
    with pytest.raises(perfbuf.PerfbufError) as e:
        perfbuf.parse_v1(data)
    err = e.value
    assert (err.offset, err.structure, err.field) == (84, "PERF_DATA_BLOCK", "SystemNameOffset")
    assert err.status_name == "PERFBUF_E_OVERLAP"
    assert (err.declared, err.limit) == (8, 88)


def test_strict_refuses_trailing_bytes_lenient_reports_them():
    data = read(NEWER) + b"\0" * 8
    cap = perfbuf.parse_v1(data)
    assert cap.anomalies == ["trailing-bytes"]
    assert cap.first_anomaly.status_name == "PERFBUF_E_TRAILING_BYTES"
    with pytest.raises(perfbuf.PerfbufError) as e:
        perfbuf.parse_v1(data, strict=True)
    assert e.value.status_name == "PERFBUF_E_TRAILING_BYTES"


def test_limits_are_the_callers():
    with pytest.raises(perfbuf.PerfbufError) as e:
        perfbuf.parse_v1(read(NEWER), max_instances=2)
    assert e.value.status_name == "PERFBUF_E_LIMIT_EXCEEDED"


def test_names_table(names):
    assert names.title(238) == "Processor"
    assert names.indexes("% PROCESSOR TIME") == [6]
    assert names.entries[0] == (1, "1847")


def test_formatted_values_from_two_captures(pair):
    newer, older = pair
    proc_new, proc_old = newer.objects[0], older.objects[0]
    got = [perfbuf.format_v1(proc_new, proc_old, a, b)[0]
           for a, b in zip(proc_new.instances, proc_old.instances)]
    assert got == [(75.0, 0), (10.0, 0), (42.5, 0)]
    first = perfbuf.format_v1(proc_new, proc_new, proc_new.instances[0], proc_new.instances[0])
    assert first[0][1] != 0  # no time passed: PDH reports no value


def test_formatted_object_is_every_instances_formatted_values(pair):
    newer, older = pair
    for o_new, o_old in zip(newer.objects, older.objects):
        if o_new.instance_count != o_old.instance_count:
            continue
        rows = perfbuf.format_v1_object(o_new, o_old)
        if o_new.instance_count > 0:
            want = [perfbuf.format_v1(o_new, o_old, a, b)
                    for a, b in zip(o_new.instances, o_old.instances)]
        else:
            want = [perfbuf.format_v1(o_new, o_old)]
        assert rows == want
    assert perfbuf.format_v1_object(newer.objects[0], older.objects[0])[0][0] == (75.0, 0)


def test_raw_samples_format_and_statistics(pair):
    newer, older = pair
    o_new, o_old = newer.objects[0], older.objects[0]
    c_new, c_old = o_new.counters[0], o_old.counters[0]
    s1, ctx = o_new.raw_sample(c_new, o_new.instances[1])
    s0, _ = o_old.raw_sample(c_old, o_old.instances[1])
    assert perfbuf.format_value(c_new.type, s1, s0, ctx) == (10.0, 0)
    lo, hi, mean, count, status = perfbuf.statistics(c_new.type, [s0, s1], ctx)
    assert (lo, hi, mean, count, status) == (10.0, 10.0, 10.0, 1, 0)


def test_counter_paths(names):
    p = perfbuf.parse_path(r"\\HOST\Process(parent/svchost#1)\% Processor Time")
    assert (p.machine, p.object, p.parent, p.instance, p.counter, p.index) == \
        ("HOST", "Process", "parent", "svchost", "% Processor Time", 1)
    with pytest.raises(perfbuf.PerfbufError) as e:
        perfbuf.parse_path("Process\\x")
    assert e.value.status_name.startswith("PERFBUF_E_PATH_")


def test_formatted_array_pairs_instances_by_name(pair, names):
    newer, older = pair
    assert perfbuf.formatted_array(newer, older, r"\Processor(*)\% Processor Time", names) == {
        "0": (75.0, 0), "1": (10.0, 0), "_Total": (42.5, 0)}
    assert perfbuf.formatted_array(newer, older, r"\Process(svchost*)\% Processor Time",
                                   names) == {"svchost": (15.0, 0), "svchost#1": (5.0, 0)}
    with pytest.raises(perfbuf.PerfbufError):
        perfbuf.formatted_array(newer, older, r"\Process(*)\No Such Counter", names)


def test_formatted_array_takes_paths_in_either_language(pair, names):
    newer, older = pair
    # A German Counter table for the same indexes, as a German system names them.
    german = perfbuf.parse_names("".join(
        "%s\0" % s for s in ["6", "Prozessorzeit (%)", "238", "Prozessor"]).encode("utf-16-le")
        + b"\0\0")
    tables = [german, names]
    assert perfbuf.formatted_array(newer, older, r"\Prozessor(_Total)\Prozessorzeit (%)",
                                   tables) == {"_Total": (42.5, 0)}
    assert perfbuf.formatted_array(newer, older, r"\Processor(_Total)\% Processor Time",
                                   tables) == {"_Total": (42.5, 0)}


def test_counter_values_as_paths(pair, names):
    values = perfbuf.counter_values(pair[0], names)
    assert values[r"\Process(svchost#1)\ID Process"] == 1044
    assert values[r"\Processor(_Total)\% Processor Time"] == 5750000 + 40000000


def test_read_all_equals_per_instance_values(pair):
    for obj in pair[0].objects:
        assert obj.read_all() == [tuple(i.values) for i in obj.instances]
        assert obj._read_all_through_library() == obj.read_all()


def test_read_all_array_is_read_all_flattened(pair):
    """Every object of both captures, with instances and without: the flat
    array holds read_all's rows in order, `columns` values each."""
    import array as array_module
    for cap in pair:
        for obj in cap.objects:
            values, columns = obj.read_all_array()
            rows = obj.read_all()
            assert isinstance(values, array_module.array) and values.typecode == "Q"
            assert list(values) == [v for row in rows for v in row]
            assert all(len(row) == columns for row in rows)
            assert len(values) == columns * len(rows)


def test_read_all_array_of_counters_laid_out_backwards():
    data = bytearray(read(NEWER))
    cap = perfbuf.parse_v1(data)
    first, second = cap.objects[1].counters
    struct.pack_into("<I", data, first.offset + 36, second.counter_offset)
    struct.pack_into("<I", data, second.offset + 36, first.counter_offset)
    obj = perfbuf.parse_v1(bytes(data)).objects[1]
    values, columns = obj.read_all_array()
    assert columns == 2
    assert [tuple(values[k:k + columns]) for k in range(0, len(values), columns)] == \
        [tuple(i.values) for i in obj.instances]


def test_read_all_reorders_counters_laid_out_backwards():
    """Counters whose offsets run against definition order: the one-struct
    read puts them back in definition order."""
    data = bytearray(read(NEWER))
    cap = perfbuf.parse_v1(data)
    proc = cap.objects[1]
    first, second = proc.counters
    # Swap the two CounterOffsets (both counters are read as 8 and 4 bytes
    # at distinct places, so the block stays valid).
    struct.pack_into("<I", data, first.offset + 36, second.counter_offset)
    struct.pack_into("<I", data, second.offset + 36, first.counter_offset)
    swapped = perfbuf.parse_v1(bytes(data))
    obj = swapped.objects[1]
    assert obj.read_all() == obj._read_all_through_library() == \
        [tuple(i.values) for i in obj.instances]


def test_v2_query_header():
    q = perfbuf.parse_v2_query(read("wine-8.0/v2-query-processor-information.bin"))
    assert (q.size, q.block_count, q.perf_freq) == (48, 0, 10000000)
    assert list(q.blocks()) == []


def test_what_is_not_a_contiguous_byte_buffer_is_refused():
    with pytest.raises(TypeError):
        perfbuf.parse_v1("PERF")
    with pytest.raises(BufferError):
        perfbuf.parse_v1(memoryview(read(NEWER))[::2])


def test_a_memoryview_cannot_be_released_under_a_capture():
    view = memoryview(bytearray(read(NEWER)))
    cap = perfbuf.parse_v1(view)
    with pytest.raises(BufferError):
        view.release()
    assert cap.objects[0].instances[0].values == [42500000]
