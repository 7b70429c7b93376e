# SPDX-License-Identifier: MIT OR Apache-2.0
"""perfbuf.Query: the collector's calls over the bundled series of four
captures (corpus/captures/series, docs/synthetic.md), each answer checked
against what the package's other readers give for the same bytes."""
import pytest

import perfbuf
from conftest import CAPTURES

SERIES = CAPTURES / "series"
CPU = r"\Process(*)\% Processor Time"


def _capture(k):
    return (SERIES / ("v1-series-%d.bin" % k)).read_bytes()


def _names():
    return (SERIES / "v1-names-series-counter-009.bin").read_bytes()


def _process_names(data):
    """PDH's instance names of the Process object: name#N by buffer order."""
    cap = perfbuf.parse_v1(data)
    seen, out = {}, []
    for inst in cap.object(230).instances:
        n = seen.get(inst.full_name.lower(), 0)
        seen[inst.full_name.lower()] = n + 1
        out.append(inst.full_name + ("#%d" % n if n else ""))
    return out


def test_every_step_of_the_series_agrees_with_the_pairing_reader():
    names = perfbuf.parse_names(_names())
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    assert (cpu.status, cpu.found) == ("item-not-validated", "not-yet")
    q.collect(_capture(0))
    first = cpu.formatted()
    # A rate's first sample has no value, as PDH gives it.
    assert first and all(i.value is None and i.status == "invalid-data" for i in first)
    for k in range(1, 4):
        q.collect(_capture(k))
        want = perfbuf.formatted_array(perfbuf.parse_v1(_capture(k)),
                                       perfbuf.parse_v1(_capture(k - 1)), CPU, names)
        got = {i.name: (i.value, i.status) for i in cpu.formatted()}
        assert got == {name: (v, perfbuf.cstatus_name(st)) for name, (v, st) in want.items()}
        assert [i.name for i in cpu.formatted()] == _process_names(_capture(k))
        assert (cpu.status, cpu.found) == ("valid-data", "items")


def test_appeared_and_exited_are_the_differences_of_the_instance_lists():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    assert cpu.exited() == [] and cpu.appeared() == []
    q.collect(_capture(0))
    for k in range(1, 4):
        q.collect(_capture(k))
        older, newer = _process_names(_capture(k - 1)), _process_names(_capture(k))
        assert cpu.appeared() == [n for n in newer if n not in older]
        assert cpu.exited() == [n for n in older if n not in newer]
    assert cpu.appeared() or cpu.exited()  # the series has churn at some step


def test_the_capture_buffer_may_be_reused_after_collect():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    buf = bytearray(_capture(0))
    q.collect(buf)
    buf[:] = bytes(len(buf))          # the query keeps samples, not bytes
    q.collect(_capture(1))
    fresh = perfbuf.Query(_names())
    again = fresh.add(CPU)
    fresh.collect(_capture(0))
    fresh.collect(_capture(1))
    assert [(i.name, i.value) for i in cpu.formatted()] == \
        [(i.name, i.value) for i in again.formatted()]


def test_a_rejected_capture_names_its_field_and_changes_nothing():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    q.collect(_capture(0))
    broken = bytearray(_capture(1))
    broken[20:24] = (len(broken) + 64).to_bytes(4, "little")  # TotalByteLength past the end
    with pytest.raises(perfbuf.PerfbufError) as e:
        q.collect(broken)
    assert (e.value.offset, e.value.structure, e.value.field) == \
        (20, "PERF_DATA_BLOCK", "TotalByteLength")
    assert e.value.declared == len(broken) + 64
    q.collect(_capture(1))            # pairs with capture 0, the last accepted
    names = perfbuf.parse_names(_names())
    want = perfbuf.formatted_array(perfbuf.parse_v1(_capture(1)), perfbuf.parse_v1(_capture(0)),
                                   CPU, names)
    assert {i.name: i.value for i in cpu.formatted()} == {n: v for n, (v, _) in want.items()}


def test_a_malformed_path_names_its_offset():
    q = perfbuf.Query(_names())
    with pytest.raises(perfbuf.PerfbufError) as e:
        q.add(r"\Process(svchost#x)\ID Process")
    assert e.value.status_name == "PERFBUF_E_INVALID_NUMBER"
    assert (e.value.offset, e.value.structure, e.value.field) == \
        (len(r"\Process(svchost#"), "COUNTER_PATH", "Index")


def test_a_path_the_capture_lacks_is_a_counter_status():
    q = perfbuf.Query(_names())
    missing = q.add(r"\Process(*)\No Such Counter")
    nobody = q.add(r"\Process(nobody)\% Processor Time")
    q.collect(_capture(0))
    assert (missing.status, missing.found) == ("no-counter", "no-counter")
    with pytest.raises(perfbuf.PerfbufError) as e:
        missing.formatted()
    assert e.value.status_name == "PERFBUF_E_NOT_FOUND" and e.value.field == "no-counter"
    assert nobody.found == "no-instance" and nobody.formatted() == []


def test_raw_items_carry_both_samples_of_the_same_process():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    q.collect(_capture(0))
    q.collect(_capture(1))
    older = perfbuf.parse_v1(_capture(0)).object(230)
    newer = perfbuf.parse_v1(_capture(1)).object(230)
    at = [c.name_title_index for c in newer.counters].index(6)
    older_names = _process_names(_capture(0))
    for item in cpu.raw():
        assert item.newer[0] == newer.instances[item.position].values[at]
        if item.pairing == "matched":
            was = older_names.index(item.name)
            assert item.older[0] == older.instances[was].values[at]
        else:
            assert item.older is None


def test_pairing_by_a_key_counter_follows_the_process_id():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    cpu.pair_by("ID Process")
    for k in range(4):
        q.collect(_capture(k))
        if k == 0:
            continue
        older = perfbuf.parse_v1(_capture(k - 1)).object(230)
        newer = perfbuf.parse_v1(_capture(k)).object(230)
        pid = [c.name_title_index for c in newer.counters].index(784)
        cpu_at = [c.name_title_index for c in newer.counters].index(6)
        by_pid = {i.values[pid]: i.values[cpu_at] for i in older.instances}
        for item in cpu.raw():
            me = newer.instances[item.position].values[pid]
            if me in by_pid:
                assert item.older is not None and item.older[0] == by_pid[me]
            else:
                assert item.older is None


def test_titles_come_from_the_capture_not_the_path():
    q = perfbuf.Query(_names())
    cpu = q.add(r"\PROCESS(*)\% processor time")
    q.collect(_capture(0))
    assert cpu.title("object") == (230, "Process")
    assert cpu.title("counter") == (6, "% Processor Time")


def test_every_definition_gives_one_item_per_value_without_a_table():
    """Query.add_definitions over a query opened on an empty Counter table:
    one item per object, instance (or counter block) and definition, and a
    matched Process item names the older instance of the same PDH name."""
    q = perfbuf.Query(b"\0\0")
    every = q.add_definitions()
    q.collect(_capture(0))
    q.collect(_capture(1))
    newer = perfbuf.parse_v1(_capture(1))
    items = every.raw()
    expected = sum(len(o.counters) * (o.instance_count if o.num_instances >= 0 else 1)
                   for o in newer.objects)
    assert len(items) == expected > 0
    before, after = _process_names(_capture(0)), _process_names(_capture(1))
    matched = [it for it in items if it.object_title == 230 and it.pairing == "matched"]
    assert matched
    for it in matched:
        assert before[it.older_position] == after[it.position]
    assert all(it.older_position is None for it in items if it.pairing == "new")


def test_exited_instances_carry_the_key_that_told_them_apart():
    """Captures 1 and 2 of the series: PID 812, the first svchost, exits.
    By PDH's key the exited name is svchost#1 (the key nobody holds any
    more); paired by ID Process, it is the process that exited, under its
    own name in capture 1, with its PID."""
    q = perfbuf.Query(_names())
    pdh = q.add(CPU)
    by_pid = q.add(CPU)
    by_pid.pair_by("ID Process")
    q.collect(_capture(1))
    q.collect(_capture(2))
    assert [(i.name, i.identity, i.key) for i in pdh.exited_instances()] == [
        ("svchost#1", "name", None)]
    gone = by_pid.exited_instances()
    assert [(i.name, i.identity, i.key) for i in gone] == [("svchost", "key-counter", 812)]
    assert gone[0].position == 1 and gone[0].object_title == 230
    assert by_pid.exited() == ["svchost"]
    assert [(i.name, i.key) for i in by_pid.appeared_instances()] == []


def test_integers_that_do_not_fit_are_refused_not_wrapped():
    """ctypes would pass 2**32 as 0 and -1 as 0xFFFFFFFF: the package
    refuses both before the library sees them."""
    with pytest.raises(ValueError):
        perfbuf.Query(_names(), max_instances=-1)
    with pytest.raises(OverflowError):
        perfbuf.Query(_names(), max_counters=2 ** 32)
    with pytest.raises(TypeError):
        perfbuf.Query(_names(), max_sections=1.5)
    reginfo = (CAPTURES / "documented" / "v2-reginfo-documented-processor-information.bin")
    with pytest.raises(OverflowError):
        perfbuf.Query.v2([{"reginfo": reginfo.read_bytes(), "block": 2 ** 32}])
    with pytest.raises(ValueError):
        perfbuf.Query.v2([{"reginfo": reginfo.read_bytes(), "block": -1}])
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    q.collect(_capture(0))
    with pytest.raises(OverflowError):
        cpu.formatted(flags=2 ** 32)


def test_a_capture_of_another_computer_is_refused_and_changes_nothing():
    q = perfbuf.Query(_names())
    cpu = q.add(CPU)
    q.collect(_capture(0))
    before = [(i.name, i.status) for i in cpu.formatted()]
    other = (CAPTURES / "synthetic" / "v1-synthetic-processor-1.bin").read_bytes()
    with pytest.raises(perfbuf.PerfbufError) as raised:
        q.collect(other)
    assert raised.value.status_name == "PERFBUF_E_MACHINE_CHANGED"
    assert (raised.value.structure, raised.value.field) == ("PERF_DATA_BLOCK", "SystemNameOffset")
    assert [(i.name, i.status) for i in cpu.formatted()] == before
