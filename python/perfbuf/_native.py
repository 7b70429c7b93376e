# SPDX-License-Identifier: MIT OR Apache-2.0
"""The shared library and ctypes mirrors of the public structs it fills.

Every mirror below copies a struct of include/perfbuf/*.h field by field;
tests/test_layout.py compiles a C program against those headers and fails
when a size or an offset differs, so a header change cannot go unnoticed.
"""
import ctypes
import os
import sys

# Where the library is looked for, first hit wins: PERFBUF_LIBRARY (a full
# path), the file the wheel carries next to this module, then the loader's
# own search (an installed libperfbuf).
_NAMES = {
    "win32": ("perfbuf.dll", "libperfbuf.dll"),
    "darwin": ("libperfbuf.dylib",),
}.get(sys.platform, ("libperfbuf.so", "libperfbuf.so.0"))


def _load():
    explicit = os.environ.get("PERFBUF_LIBRARY")
    if explicit:
        return ctypes.CDLL(explicit)
    here = os.path.dirname(os.path.abspath(__file__))
    for name in _NAMES:
        candidate = os.path.join(here, name)
        if os.path.exists(candidate):
            if sys.platform == "win32":
                # A mingw build may need its runtime DLLs from the same folder.
                os.add_dll_directory(here)
            return ctypes.CDLL(candidate)
    last = None
    for name in _NAMES:
        try:
            return ctypes.CDLL(name)
        except OSError as exc:
            last = exc
    raise OSError("perfbuf: the shared library was not found (set PERFBUF_LIBRARY): %s" % last)


lib = _load()

c_size_t = ctypes.c_size_t
u8, u16, u32, u64 = ctypes.c_uint8, ctypes.c_uint16, ctypes.c_uint32, ctypes.c_uint64
i32, i64 = ctypes.c_int32, ctypes.c_int64
c_bool = ctypes.c_bool
c_char_p = ctypes.c_char_p
c_void_p = ctypes.c_void_p
P = ctypes.POINTER


class Struct(ctypes.Structure):
    pass


def _struct(name, fields):
    cls = type(name, (Struct,), {"_fields_": fields})
    return cls


# common.h
Error = _struct("perfbuf_error", [
    ("status", ctypes.c_int), ("offset", c_size_t), ("structure", c_char_p), ("field", c_char_p),
    ("declared", u64), ("limit", u64)])
Options = _struct("perfbuf_options", [
    ("flags", u32), ("max_sections", u32), ("max_counters", u32), ("max_instances", u32)])
SystemTime = _struct("perfbuf_systemtime", [
    ("year", u16), ("month", u16), ("day_of_week", u16), ("day", u16),
    ("hour", u16), ("minute", u16), ("second", u16), ("milliseconds", u16)])

# values.h
RawSample = _struct("perfbuf_raw_sample", [
    ("status", u32), ("type", u32), ("first", u64), ("second", u64), ("multi", u32),
    ("time_stamp", i64)])
ValueContext = _struct("perfbuf_value_context", [("frequency", u64), ("scale", i32)])
Value = _struct("perfbuf_value", [
    ("status", u32), ("format", u32), ("as_double", ctypes.c_double), ("as_large", i64),
    ("as_long", i32)])
PreparedFormula = _struct("perfbuf_prepared_formula", [("type", u32), ("formula", u32)])
Statistics = _struct("perfbuf_statistics", [
    ("status", u32), ("format", u32), ("count", u32), ("min", Value), ("max", Value),
    ("mean", Value)])

# v1.h
V1Block = _struct("perfbuf_v1_block", [
    ("data", P(u8)), ("received", c_size_t), ("size", c_size_t), ("version", u32),
    ("revision", u32), ("header_length", c_size_t), ("object_count", u32),
    ("declared_object_count", u32), ("default_object", i32), ("system_time", SystemTime),
    ("perf_time", i64), ("perf_freq", i64), ("perf_time_100ns", i64),
    ("system_name_offset", c_size_t), ("system_name_units", c_size_t),
    ("index_slots", c_size_t), ("anomalies", u32), ("first_anomaly", Error),
    ("parse_id", u64)])
V1Object = _struct("perfbuf_v1_object", [
    ("index", u32), ("offset", c_size_t), ("total_length", c_size_t),
    ("definition_length", c_size_t), ("header_length", c_size_t), ("name_title_index", u32),
    ("help_title_index", u32), ("detail_level", u32), ("counter_count", u32),
    ("default_counter", i32), ("num_instances", i32), ("instance_count", u32),
    ("code_page", u32), ("perf_time", i64), ("perf_freq", i64),
    ("definitions_offset", c_size_t), ("data_offset", c_size_t)])
V1Counter = _struct("perfbuf_v1_counter", [
    ("index", u32), ("offset", c_size_t), ("byte_length", u32), ("name_title_index", u32),
    ("help_title_index", u32), ("default_scale", i32), ("detail_level", u32), ("type", u32),
    ("size", u32), ("counter_offset", u32)])
V1CounterBlock = _struct("perfbuf_v1_counter_block", [
    ("offset", c_size_t), ("byte_length", u32), ("parse_id", u64)])
V1Instance = _struct("perfbuf_v1_instance", [
    ("index", u32), ("offset", c_size_t), ("byte_length", u32), ("parent_title_index", u32),
    ("parent_instance", u32), ("unique_id", i32), ("name_offset", c_size_t),
    ("name_bytes", c_size_t), ("code_page", u32), ("counters", V1CounterBlock)])
V1Iter = _struct("perfbuf_v1_iter", [
    ("pos", c_size_t), ("end", c_size_t), ("next_index", u32), ("count", u32),
    ("code_page", u32)])
V1InstanceIndex = _struct("perfbuf_v1_instance_index", [
    ("object", V1Object), ("offsets", P(c_size_t)), ("count", u32), ("slots", P(u64)),
    ("slot_count", c_size_t), ("object_count", u32), ("block_data", P(u8)), ("parse_id", u64),
    ("name_classes", P(u64))])
V1PlanEntry = _struct("perfbuf_v1_plan_entry", [
    ("title_index", u32), ("type", u32), ("offset", u32), ("size", u32), ("base_offset", u32),
    ("base_size", u32), ("scale", i32), ("time_base", u8), ("pairing", u8), ("reserved", u16),
    ("formula", PreparedFormula)])
V1Plan = _struct("perfbuf_v1_plan", [
    ("data", P(u8)), ("size", c_size_t), ("parse_id", u64), ("perf_time", i64),
    ("perf_time_100ns", i64), ("data_offset", c_size_t), ("data_end", c_size_t), ("reach", u64),
    ("entries", P(V1PlanEntry)), ("count", u32), ("clock", u64 * 4), ("frequency", u64 * 4),
    ("seal", u64)])

# names.h
NameTable = _struct("perfbuf_name_table", [
    ("data", P(u8)), ("size", c_size_t), ("count", u32), ("ascending", c_bool),
    ("anomalies", u32), ("first_anomaly", Error)])
NameEntry = _struct("perfbuf_name_entry", [
    ("title_index", u32), ("offset", c_size_t), ("text_offset", c_size_t),
    ("text_units", c_size_t)])
NamesIter = _struct("perfbuf_names_iter", [("pos", c_size_t), ("next", u32), ("count", u32)])
NameSlot = _struct("perfbuf_name_slot", [("title_index", u32), ("offset", c_size_t)])
NameIndex = _struct("perfbuf_name_index", [
    ("slots", P(NameSlot)), ("count", u32), ("duplicates", u32)])

# resolve.h
TitleTables = _struct("perfbuf_title_tables", [
    ("english", P(NameTable)), ("english_index", P(NameIndex)), ("localized", P(NameTable)),
    ("localized_index", P(NameIndex))])

# v2_query.h
V2Query = _struct("perfbuf_v2_query", [
    ("data", P(u8)), ("received", c_size_t), ("size", c_size_t), ("block_count", u32),
    ("perf_time_stamp", i64), ("perf_time_100ns", i64), ("perf_freq", i64),
    ("system_time", SystemTime), ("anomalies", u32), ("layout", u32),
    ("first_anomaly", Error)])
V2Block = _struct("perfbuf_v2_block", [
    ("index", u32), ("status", u32), ("kind", ctypes.c_int), ("offset", c_size_t),
    ("size", c_size_t), ("counter_count", u32), ("instance_count", u32),
    ("ids_offset", c_size_t), ("items_offset", c_size_t), ("items_end", c_size_t)])
V2Instance = _struct("perfbuf_v2_instance", [
    ("index", u32), ("id", u32), ("offset", c_size_t), ("size", c_size_t),
    ("name_offset", c_size_t), ("name_units", c_size_t), ("values_offset", c_size_t),
    ("value_count", u32)])
V2Value = _struct("perfbuf_v2_value", [
    ("index", u32), ("counter_id", u32), ("offset", c_size_t), ("data_size", u32),
    ("is_integer", c_bool), ("integer", u64), ("bytes", P(u8))])
V2Iter = _struct("perfbuf_v2_iter", [
    ("pos", c_size_t), ("end", c_size_t), ("next_index", u32), ("count", u32)])

# v2_meta.h
Guid = _struct("perfbuf_guid", [("data1", u32), ("data2", u16), ("data3", u16),
                                ("data4", u8 * 8)])
V2Reginfo = _struct("perfbuf_v2_reginfo", [
    ("data", P(u8)), ("size", c_size_t), ("counterset", Guid), ("detail_level", u32),
    ("counter_count", u32), ("instance_type", u32), ("anomalies", u32),
    ("first_anomaly", Error), ("ids_ascending", c_bool), ("order", P(u64)),
    ("order_count", c_size_t)])
V2CounterReg = _struct("perfbuf_v2_counter_reg", [
    ("index", u32), ("offset", c_size_t), ("id", u32), ("type", u32), ("attributes", u64),
    ("detail_level", u32), ("default_scale", i32), ("base_id", u32), ("perf_time_id", u32),
    ("perf_freq_id", u32), ("multi_id", u32), ("aggregate", u32)])
V2Countersets = _struct("perfbuf_v2_countersets", [("data", P(u8)), ("count", c_size_t)])
V2InstanceList = _struct("perfbuf_v2_instance_list", [
    ("data", P(u8)), ("size", c_size_t), ("count", u32), ("anomalies", u32),
    ("first_anomaly", Error)])
V2ListedInstance = _struct("perfbuf_v2_listed_instance", [
    ("index", u32), ("id", u32), ("offset", c_size_t), ("name_offset", c_size_t),
    ("name_units", c_size_t)])
V2ListIter = _struct("perfbuf_v2_list_iter", [("pos", c_size_t), ("next_index", u32)])
V2CounterAnswer = _struct("perfbuf_v2_counter_answer", [
    ("counter", V2CounterReg), ("anomalies", u32), ("first_anomaly", Error)])
V2String = _struct("perfbuf_v2_string", [
    ("data", P(u8)), ("size", c_size_t), ("units", c_size_t), ("anomalies", u32),
    ("first_anomaly", Error)])
V2Strings = _struct("perfbuf_v2_strings", [
    ("data", P(u8)), ("size", c_size_t), ("count", u32), ("origin", ctypes.c_int),
    ("strings_offset", c_size_t), ("anomalies", u32), ("first_anomaly", Error),
    ("ids_ascending", c_bool), ("order", P(u64)), ("order_count", c_size_t)])
V2CounterString = _struct("perfbuf_v2_counter_string", [
    ("index", u32), ("offset", c_size_t), ("counter_id", u32), ("present", c_bool),
    ("text_offset", c_size_t), ("units", c_size_t)])
V2Identifiers = _struct("perfbuf_v2_identifiers", [
    ("data", P(u8)), ("size", c_size_t), ("count", u32), ("anomalies", u32),
    ("first_anomaly", Error)])
V2Identifier = _struct("perfbuf_v2_identifier", [
    ("index", u32), ("offset", c_size_t), ("size", c_size_t), ("counterset", Guid),
    ("status", u32), ("counter_id", u32), ("instance_id", u32), ("query_index", u32),
    ("has_name", c_bool), ("name_offset", c_size_t), ("name_units", c_size_t)])
V2ValueIndex = _struct("perfbuf_v2_value_index", [
    ("slots", P(u64)), ("query_data", P(u8)), ("query_size", c_size_t),
    ("query_time_stamp", i64), ("query_time_100ns", i64), ("block_offset", c_size_t),
    ("instance_offset", c_size_t), ("values_offset", c_size_t), ("value_count", u32),
    ("key_count", u32)])
V2PlanEntry = _struct("perfbuf_v2_plan_entry", [
    ("counter_id", u32), ("type", u32), ("scale", i32), ("status", ctypes.c_int),
    ("first", u32), ("second", u32), ("frequency", u32), ("multi", u32),
    ("second_source", u8), ("frequency_source", u8), ("formula", PreparedFormula)])
V2Plan = _struct("perfbuf_v2_plan", [
    ("entries", P(V2PlanEntry)), ("count", u32), ("scratch_needed", c_size_t),
    ("block_offset", c_size_t), ("repeated_ids", c_bool)])
V2Mismatch = _struct("perfbuf_v2_mismatch", [
    ("kind", ctypes.c_int), ("block_index", u32), ("counter_id", u32), ("in_query", Error),
    ("in_registration", Error), ("in_identifiers", Error)])

# paths.h
Span = _struct("perfbuf_span", [("offset", c_size_t), ("length", c_size_t)])
CounterPath = _struct("perfbuf_counter_path", [
    ("text", c_void_p), ("text_len", c_size_t), ("machine", Span), ("object", Span),
    ("parent", Span), ("instance", Span), ("counter", Span), ("index", u32), ("flags", u32)])

# collector.h
V1Pairing = _struct("perfbuf_v1_pairing", [
    ("older", P(V1Block)), ("newer", P(V1Block)), ("older_object", V1Object),
    ("newer_object", V1Object), ("has_older", c_bool), ("paired", u32),
    ("new_instances", u32), ("ambiguous", u32), ("older_parents", V1InstanceIndex),
    ("newer_parents", V1InstanceIndex), ("matches", P(u64)), ("older_counters", P(u64)),
    ("parent_answers", P(u64)), ("text", c_void_p), ("text_cap", c_size_t)])
V2Pairing = _struct("perfbuf_v2_pairing", [
    ("older", P(V2Query)), ("newer", P(V2Query)), ("older_block", V2Block),
    ("newer_block", V2Block), ("has_older", c_bool), ("paired", u32), ("new_instances", u32),
    ("ambiguous", u32), ("matches", P(u64)), ("older_to_newer", P(u64)),
    ("older_samples", P(u64)), ("text", c_void_p), ("text_cap", c_size_t)])
FormattedItem = _struct("perfbuf_formatted_item", [
    ("name", c_void_p), ("name_len", c_size_t), ("pairing", u32), ("position", u32),
    ("counter", u32), ("object", u32), ("value", Value)])

RawItem = _struct("perfbuf_raw_item", [
    ("name", c_void_p), ("name_len", c_size_t), ("pairing", u32), ("position", u32),
    ("counter", u32), ("object", u32), ("has_older", c_bool), ("older", RawSample),
    ("newer", RawSample), ("context", ValueContext), ("older_position", u32),
    ("object_title", u32)])

# query.h: the query and its counters live in memory the package owns; the
# library links them and keeps their samples in the arena.
QuerySamples = _struct("perfbuf_query_samples", [
    ("stamp", u64), ("count", u32), ("first_object_items", u32), ("items", c_size_t),
    ("keys", c_size_t), ("claims", c_size_t)])


class QueryCounter(Struct):
    pass


QueryCounter.__name__ = "perfbuf_query_counter"
QueryCounter._fields_ = [
    ("status", u32), ("found", u32), ("owner", c_void_p), ("seal", u64), ("slot", u32),
    ("next", P(QueryCounter)), ("kind", u32), ("identity", u32), ("path", CounterPath),
    ("key", CounterPath), ("object_title", u32), ("counter_title", u32), ("key_title", u32),
    ("planned_object", u32), ("planned_counter", u32), ("planned_key", u32),
    ("registration", u32), ("counter_id", u32), ("resolution", u32), ("older", QuerySamples),
    ("newer", QuerySamples)]
QueryRegistration = _struct("perfbuf_query_registration", [
    ("reginfo", c_void_p), ("reginfo_len", c_size_t), ("counter_names", c_void_p),
    ("counter_names_len", c_size_t), ("counterset_name", c_void_p),
    ("counterset_name_len", c_size_t), ("block", u32), ("reg", V2Reginfo),
    ("names", V2Strings), ("name", V2String), ("has_names", c_bool), ("has_name", c_bool),
    ("reg_order", c_size_t), ("names_order", c_size_t)])
QueryGeneration = _struct("perfbuf_query_generation", [
    ("stamp", u64), ("start", c_size_t), ("end", c_size_t), ("records", c_size_t),
    ("record_count", u32), ("parents", c_size_t), ("parent_order", c_size_t),
    ("parent_count", u32), ("strings", c_size_t), ("string_bytes", c_size_t),
    ("machine", c_size_t), ("machine_bytes", c_size_t)])
Query = _struct("perfbuf_query", [
    ("english", NameTable), ("localized", NameTable), ("has_localized", c_bool),
    ("english_index", NameIndex), ("localized_index", NameIndex), ("names", TitleTables),
    ("first", P(QueryCounter)), ("last", P(QueryCounter)), ("counters", u32),
    ("arena", P(u8)), ("arena_bytes", c_size_t), ("table_bytes", c_size_t),
    ("fixed_bytes", c_size_t), ("seal", u64), ("stamp", u64), ("older", QueryGeneration),
    ("newer", QueryGeneration), ("registrations", P(QueryRegistration)),
    ("registration_count", u32), ("options", Options)])
QueryInstance = _struct("perfbuf_query_instance", [
    ("name", c_void_p), ("name_len", c_size_t), ("position", u32), ("object", u32),
    ("object_title", u32), ("identity", u32), ("key", u64)])

# openmetrics.h
OpenMetricsSample = _struct("perfbuf_openmetrics_sample", [
    ("suffix", c_char_p), ("source", u32), ("conversion", u32)])
OpenMetricsFamily = _struct("perfbuf_openmetrics_family", [
    ("suffix", c_char_p), ("kind", u32), ("unit", c_char_p), ("role", c_char_p),
    ("sample_count", u32), ("samples", OpenMetricsSample * 2)])
OpenMetricsMapping = _struct("perfbuf_openmetrics_mapping", [
    ("type", u32), ("family_count", u32), ("families", OpenMetricsFamily * 4),
    ("promql", c_char_p), ("reason", c_char_p)])

# Every mirror with the C name it copies: what the layout test checks.
MIRRORS = [Error, Options, SystemTime, RawSample, ValueContext, Value, PreparedFormula,
           Statistics, V1Block, V1Object, V1Counter, V1CounterBlock, V1Instance, V1Iter,
           V1InstanceIndex, V1PlanEntry, V1Plan, NameTable, NameEntry, NamesIter, NameSlot,
           NameIndex, TitleTables, V2Query,
           V2Block, V2Instance, V2Value, V2Iter, Guid, V2Reginfo, V2CounterReg, V2Countersets,
           V2InstanceList, V2ListedInstance, V2ListIter, V2CounterAnswer, V2String, V2Strings,
           V2CounterString, V2Identifiers, V2Identifier, V2ValueIndex, V2PlanEntry, V2Plan,
           V2Mismatch, Span, CounterPath, V1Pairing,
           V2Pairing, FormattedItem, RawItem, QuerySamples, QueryCounter, QueryRegistration,
           QueryGeneration, Query, QueryInstance, OpenMetricsSample, OpenMetricsFamily,
           OpenMetricsMapping]

status = ctypes.c_int


def _fn(name, restype, *argtypes):
    f = getattr(lib, name)
    f.restype = restype
    f.argtypes = list(argtypes)
    return f


R = ctypes.POINTER
status_name = _fn("perfbuf_status_name", c_char_p, status)
status_string = _fn("perfbuf_status_string", c_char_p, status)
cstatus_name = _fn("perfbuf_cstatus_name", c_char_p, u32)
version_string = _fn("perfbuf_version_string", c_char_p)
counter_type_name = _fn("perfbuf_counter_type_name", c_char_p, u32)

v1_parse = _fn("perfbuf_v1_parse", status, c_void_p, c_size_t, R(Options), R(V1Block), R(Error))
v1_objects_begin = _fn("perfbuf_v1_objects_begin", None, R(V1Block), R(V1Iter))
v1_objects_next = _fn("perfbuf_v1_objects_next", c_bool, R(V1Block), R(V1Iter), R(V1Object))
v1_counters_begin = _fn("perfbuf_v1_counters_begin", None, R(V1Object), R(V1Iter))
v1_counters_next = _fn("perfbuf_v1_counters_next", c_bool, R(V1Block), R(V1Iter), R(V1Counter))
v1_object_counter_block = _fn("perfbuf_v1_object_counter_block", c_bool, R(V1Block),
                              R(V1Object), R(V1CounterBlock))
v1_instances_begin = _fn("perfbuf_v1_instances_begin", None, R(V1Object), R(V1Iter))
v1_instances_next = _fn("perfbuf_v1_instances_next", c_bool, R(V1Block), R(V1Iter),
                        R(V1Instance))
v1_counter_value = _fn("perfbuf_v1_counter_value", u64, R(V1Block), R(V1CounterBlock),
                       R(V1Counter))
v1_counter_bytes = _fn("perfbuf_v1_counter_bytes", P(u8), R(V1Block), R(V1CounterBlock),
                       R(V1Counter))
v1_system_name_utf8 = _fn("perfbuf_v1_system_name_utf8", status, R(V1Block), c_void_p, c_size_t,
                          R(c_size_t))
v1_instance_name_utf8 = _fn("perfbuf_v1_instance_name_utf8", status, R(V1Block), R(V1Instance),
                            c_void_p, c_size_t, R(c_size_t))
v1_block_index_build = _fn("perfbuf_v1_block_index_build", status, R(V1Block), P(u64), c_size_t,
                           R(V1InstanceIndex))
v1_index_build = _fn("perfbuf_v1_index_build", status, R(V1Block), R(V1Object), P(c_size_t),
                     c_size_t, R(V1InstanceIndex))
v1_full_name_utf8 = _fn("perfbuf_v1_full_name_utf8", status, R(V1Block), R(V1Object),
                        R(V1Instance), R(V1InstanceIndex), c_void_p, c_size_t, R(c_size_t))
v1_raw_sample = _fn("perfbuf_v1_raw_sample", status, R(V1Block), R(V1Object), R(V1Counter),
                    R(V1CounterBlock), R(RawSample), R(ValueContext))
v1_plan_build = _fn("perfbuf_v1_plan_build", status, R(V1Block), R(V1Object), P(V1PlanEntry),
                    c_size_t, R(V1Plan))
v1_plan_read = _fn("perfbuf_v1_plan_read", status, R(V1Plan), R(V1Block), R(V1CounterBlock),
                   P(u64), c_size_t)
v1_plan_read_object = _fn("perfbuf_v1_plan_read_object", status, R(V1Plan), R(V1Block),
                          R(V1Object), c_void_p, c_size_t, R(c_size_t))
v1_plan_format_all = _fn("perfbuf_v1_plan_format_all", status, R(V1Plan), R(V1Block),
                         R(V1CounterBlock), R(V1Plan), R(V1Block), R(V1CounterBlock), u32,
                         P(Value), c_size_t)
v1_plan_format_object_doubles = _fn("perfbuf_v1_plan_format_object_doubles", status, R(V1Plan),
                                    R(V1Block), R(V1Object), R(V1Plan), R(V1Block), R(V1Object),
                                    u32, c_void_p, c_void_p, c_size_t, R(c_size_t))
compact_cstatus = _fn("perfbuf_compact_cstatus", u32, u8)
format_value = _fn("perfbuf_format_value", u32, u32, R(RawSample), R(RawSample),
                   R(ValueContext), u32, R(Value))
compute_statistics = _fn("perfbuf_compute_statistics", u32, u32, R(ValueContext), u32, c_size_t,
                         c_size_t, P(RawSample), R(Statistics))

names_parse = _fn("perfbuf_names_parse", status, c_void_p, c_size_t, R(Options), R(NameTable),
                  R(Error))
names_begin = _fn("perfbuf_names_begin", None, R(NameTable), R(NamesIter))
names_next = _fn("perfbuf_names_next", c_bool, R(NameTable), R(NamesIter), R(NameEntry))
names_text_utf8 = _fn("perfbuf_names_text_utf8", status, R(NameTable), R(NameEntry), c_void_p,
                      c_size_t, R(c_size_t))

v2_query_parse = _fn("perfbuf_v2_query_parse", status, c_void_p, c_size_t, R(Options),
                     R(V2Query), R(Error))
v2_kind_name = _fn("perfbuf_v2_kind_name", c_char_p, u32)
v2_blocks_begin = _fn("perfbuf_v2_blocks_begin", None, R(V2Query), R(V2Iter))
v2_blocks_next = _fn("perfbuf_v2_blocks_next", c_bool, R(V2Query), R(V2Iter), R(V2Block))
v2_block_counter_id = _fn("perfbuf_v2_block_counter_id", u32, R(V2Query), R(V2Block), u32)
v2_instances_begin = _fn("perfbuf_v2_instances_begin", None, R(V2Block), R(V2Iter))
v2_instances_next = _fn("perfbuf_v2_instances_next", c_bool, R(V2Query), R(V2Block), R(V2Iter),
                        R(V2Instance))
v2_block_values_begin = _fn("perfbuf_v2_block_values_begin", None, R(V2Block), R(V2Iter))
v2_instance_values_begin = _fn("perfbuf_v2_instance_values_begin", None, R(V2Instance),
                               R(V2Iter))
v2_values_next = _fn("perfbuf_v2_values_next", c_bool, R(V2Query), R(V2Block), R(V2Iter),
                     R(V2Value))
v2_instance_name_utf8 = _fn("perfbuf_v2_instance_name_utf8", status, R(V2Query), R(V2Instance),
                            c_void_p, c_size_t, R(c_size_t))

path_parse = _fn("perfbuf_path_parse", status, c_void_p, c_size_t, R(CounterPath), R(Error))

v1_pairing_scratch = _fn("perfbuf_v1_pairing_scratch", status, R(V1Block), R(V1Block), u32,
                         R(c_size_t))
v1_pair = _fn("perfbuf_v1_pair", status, R(V1Block), R(V1Block), u32, P(u64), c_size_t,
              R(V1Pairing))
v1_formatted_array = _fn("perfbuf_v1_formatted_array", status, R(V1Pairing), u32,
                         R(CounterPath), u32, P(FormattedItem), R(c_size_t), c_void_p,
                         R(c_size_t))

v2_reginfo_parse = _fn("perfbuf_v2_reginfo_parse", status, c_void_p, c_size_t, R(Options),
                       R(V2Reginfo), R(Error))
v2_reginfo_parse_indexed = _fn("perfbuf_v2_reginfo_parse_indexed", status, c_void_p, c_size_t,
                               R(Options), P(u64), c_size_t, R(V2Reginfo), R(Error))
v2_pairing_scratch = _fn("perfbuf_v2_pairing_scratch", status, R(V2Block), R(V2Block),
                         R(c_size_t))
v2_pair = _fn("perfbuf_v2_pair", status, R(V2Query), R(V2Block), R(V2Query), R(V2Block),
              P(u64), c_size_t, R(V2Pairing))
v2_formatted_array = _fn("perfbuf_v2_formatted_array", status, R(V2Pairing), R(V2Reginfo), u32,
                         R(CounterPath), u32, P(FormattedItem), R(c_size_t), c_void_p,
                         R(c_size_t))
v2_plan_build = _fn("perfbuf_v2_plan_build", status, R(V2Query), R(V2Block), R(V2Reginfo),
                    P(V2PlanEntry), c_size_t, P(u32), c_size_t, R(V2Plan))
v2_plan_format_block_doubles = _fn("perfbuf_v2_plan_format_block_doubles", status, R(V2Query),
                                   R(V2Block), R(V2Query), R(V2Block), R(V2Plan), u32,
                                   P(u64), c_size_t, c_void_p, c_void_p, c_size_t,
                                   R(c_size_t))
guid_format = _fn("perfbuf_guid_format", None, c_void_p, c_void_p)

# The V2 metadata readers (v2_meta.h) besides the registration.
v2_reginfo_counter = _fn("perfbuf_v2_reginfo_counter", c_bool, R(V2Reginfo), u32,
                         R(V2CounterReg))
v2_reginfo_find = _fn("perfbuf_v2_reginfo_find", status, R(V2Reginfo), u32, R(V2CounterReg))
v2_countersets_parse = _fn("perfbuf_v2_countersets_parse", status, c_void_p, c_size_t,
                           R(V2Countersets), R(Error))
v2_countersets_get = _fn("perfbuf_v2_countersets_get", c_bool, R(V2Countersets), c_size_t,
                         R(Guid))
v2_instance_list_parse = _fn("perfbuf_v2_instance_list_parse", status, c_void_p, c_size_t,
                             R(Options), R(V2InstanceList), R(Error))
v2_instance_list_begin = _fn("perfbuf_v2_instance_list_begin", None, R(V2ListIter))
v2_instance_list_next = _fn("perfbuf_v2_instance_list_next", c_bool, R(V2InstanceList),
                            R(V2ListIter), R(V2ListedInstance))
v2_listed_name_utf8 = _fn("perfbuf_v2_listed_name_utf8", status, R(V2InstanceList),
                          R(V2ListedInstance), c_void_p, c_size_t, R(c_size_t))
v2_counter_reg_parse = _fn("perfbuf_v2_counter_reg_parse", status, c_void_p, c_size_t,
                           R(Options), R(V2CounterAnswer), R(Error))
v2_string_parse = _fn("perfbuf_v2_string_parse", status, c_void_p, c_size_t, R(Options),
                      R(V2String), R(Error))
v2_string_utf8 = _fn("perfbuf_v2_string_utf8", status, R(V2String), c_void_p, c_size_t,
                     R(c_size_t))
v2_provider_guid_parse = _fn("perfbuf_v2_provider_guid_parse", status, c_void_p, c_size_t,
                             R(Guid), R(Error))
v2_strings_parse = _fn("perfbuf_v2_strings_parse", status, c_void_p, c_size_t, ctypes.c_int,
                       R(Options), R(V2Strings), R(Error))
v2_strings_parse_indexed = _fn("perfbuf_v2_strings_parse_indexed", status, c_void_p, c_size_t,
                               ctypes.c_int, R(Options), P(u64), c_size_t, R(V2Strings),
                               R(Error))
v2_strings_get = _fn("perfbuf_v2_strings_get", c_bool, R(V2Strings), u32, R(V2CounterString))
v2_strings_find = _fn("perfbuf_v2_strings_find", status, R(V2Strings), u32,
                      R(V2CounterString))
v2_counter_string_utf8 = _fn("perfbuf_v2_counter_string_utf8", status, R(V2Strings),
                             R(V2CounterString), c_void_p, c_size_t, R(c_size_t))
v2_identifiers_parse = _fn("perfbuf_v2_identifiers_parse", status, c_void_p, c_size_t,
                           R(Options), R(V2Identifiers), R(Error))
v2_identifiers_begin = _fn("perfbuf_v2_identifiers_begin", None, R(V2ListIter))
v2_identifiers_next = _fn("perfbuf_v2_identifiers_next", c_bool, R(V2Identifiers),
                          R(V2ListIter), R(V2Identifier))
v2_identifier_name_utf8 = _fn("perfbuf_v2_identifier_name_utf8", status, R(V2Identifiers),
                              R(V2Identifier), c_void_p, c_size_t, R(c_size_t))
v2_crosscheck = _fn("perfbuf_v2_crosscheck", status, R(V2Query), R(V2Reginfo),
                    R(V2Identifiers), R(V2Mismatch))
v2_crosscheck_indexed = _fn("perfbuf_v2_crosscheck_indexed", status, R(V2Query), R(V2Reginfo),
                            R(V2Identifiers), P(u64), c_size_t, R(V2Mismatch))
v2_mismatch_name = _fn("perfbuf_v2_mismatch_name", c_char_p, ctypes.c_int)
v2_pairing_instance = _fn("perfbuf_v2_pairing_instance", c_bool, R(V2Pairing), u32, R(u32),
                          R(u32), R(u32))
v2_raw_sample = _fn("perfbuf_v2_raw_sample", status, R(V2Query), R(V2Block), R(V2Instance),
                    R(V2Reginfo), u32, R(RawSample), R(ValueContext))
v2_raw_sample_pair = _fn("perfbuf_v2_raw_sample_pair", status, R(V2Query), R(V2Block),
                         R(V2Instance), R(V2Query), R(V2Block), R(V2Instance), R(V2Reginfo), u32,
                         R(RawSample), R(ValueContext), R(RawSample), R(ValueContext), R(status))
counter_type_is_displayable = _fn("perfbuf_counter_type_is_displayable", c_bool, u32)
v1_pairing_scratch_objects = _fn("perfbuf_v1_pairing_scratch_objects", status, R(V1Object),
                                 R(V1Object), R(c_size_t))
v1_pair_objects = _fn("perfbuf_v1_pair_objects", status, R(V1Block), R(V1Object),
                      R(V1InstanceIndex), R(V1Block), R(V1Object), R(V1InstanceIndex), P(u64),
                      c_size_t, R(V1Pairing))
v1_pairing_instance = _fn("perfbuf_v1_pairing_instance", c_bool, R(V1Pairing), u32, R(u32),
                          R(u32), R(u32))
v1_index_get = _fn("perfbuf_v1_index_get", status, R(V1Block), R(V1InstanceIndex), u32,
                   R(V1Instance))

# Counter paths over V1 titles (resolve.h, paths.h, text.h).
names_index_build = _fn("perfbuf_names_index_build", status, R(NameTable), P(NameSlot),
                        c_size_t, R(NameIndex))
title_matches = _fn("perfbuf_title_matches", u32, R(TitleTables), u32, c_void_p, c_size_t)
path_name_matches = _fn("perfbuf_path_name_matches", c_bool, R(CounterPath), ctypes.c_int,
                        c_void_p, c_size_t)
path_instance_matches = _fn("perfbuf_path_instance_matches", c_bool, R(CounterPath), c_void_p,
                            c_size_t, c_void_p, c_size_t, u32)
v1_parent = _fn("perfbuf_v1_parent", status, R(V1Block), R(V1Object), R(V1Instance),
                R(V1InstanceIndex), R(V1Instance), R(Error))
codepage_supported = _fn("perfbuf_codepage_supported", c_bool, u32)
v2_value_index_slots = _fn("perfbuf_v2_value_index_slots", c_size_t, R(V2Block))
v2_value_index_build = _fn("perfbuf_v2_value_index_build", status, R(V2Query), R(V2Block),
                           R(V2Instance), P(u64), c_size_t, R(V2ValueIndex))
v2_raw_sample_indexed = _fn("perfbuf_v2_raw_sample_indexed", status, R(V2Query), R(V2Block),
                            R(V2Instance), R(V2Reginfo), R(V2ValueIndex), u32, R(RawSample),
                            R(ValueContext))

# The query (query.h): every call fills a perfbuf_error.
query_open = _fn("perfbuf_query_open", status, R(Query), c_void_p, c_size_t, c_void_p, c_size_t,
                 R(Error))
query_open_v2 = _fn("perfbuf_query_open_v2", status, R(Query), P(QueryRegistration), c_size_t,
                    R(Error))
query_close = _fn("perfbuf_query_close", status, R(Query), R(Error))
query_options = _fn("perfbuf_query_options", status, R(Query), R(Options), R(Error))
query_add = _fn("perfbuf_query_add", status, R(Query), R(QueryCounter), c_void_p, c_size_t,
                R(Error))
query_add_definitions = _fn("perfbuf_query_add_definitions", status, R(Query),
                            R(QueryCounter), R(Error))
query_pair_by = _fn("perfbuf_query_pair_by", status, R(Query), R(QueryCounter), c_void_p,
                    c_size_t, R(Error))
query_pair_by_unique_id = _fn("perfbuf_query_pair_by_unique_id", status, R(Query),
                              R(QueryCounter), R(Error))
query_arena = _fn("perfbuf_query_arena", status, R(Query), c_void_p, R(c_size_t), R(Error))
query_collect = _fn("perfbuf_query_collect", status, R(Query), c_void_p, c_size_t, R(c_size_t),
                    R(Error))
query_formatted_array = _fn("perfbuf_query_formatted_array", status, R(Query), R(QueryCounter),
                            u32, P(FormattedItem), R(c_size_t), c_void_p, P(c_size_t), R(Error))
query_raw_array = _fn("perfbuf_query_raw_array", status, R(Query), R(QueryCounter), P(RawItem),
                      R(c_size_t), c_void_p, P(c_size_t), R(Error))
query_instances = _fn("perfbuf_query_instances", status, R(Query), R(QueryCounter), u32,
                      P(QueryInstance), R(c_size_t), c_void_p, P(c_size_t), R(Error))
query_title = _fn("perfbuf_query_title", status, R(Query), R(QueryCounter), u32, ctypes.c_int,
                  R(u32), c_void_p, c_size_t, R(c_size_t), R(Error))

# OpenMetrics (openmetrics.h).
openmetrics_map = _fn("perfbuf_openmetrics_map", status, u32, R(OpenMetricsMapping))
openmetrics_name = _fn("perfbuf_openmetrics_name", status, c_void_p, c_size_t, c_void_p, c_size_t,
                       u32, c_void_p, c_size_t, u32, c_void_p, c_size_t, R(c_size_t))
openmetrics_unit = _fn("perfbuf_openmetrics_unit", c_char_p, R(OpenMetricsFamily), c_void_p,
                       c_size_t)
openmetrics_escape = _fn("perfbuf_openmetrics_escape", status, c_void_p, c_size_t, c_void_p,
                         c_size_t, R(c_size_t))
openmetrics_value = _fn("perfbuf_openmetrics_value", status, R(OpenMetricsSample), R(RawSample),
                        R(ValueContext), i64, c_void_p, c_size_t, R(c_size_t))
openmetrics_time = _fn("perfbuf_openmetrics_time", status, i64, R(i64), c_void_p, c_size_t,
                       R(c_size_t))
openmetrics_promql = _fn("perfbuf_openmetrics_promql", status, R(OpenMetricsMapping), c_void_p,
                         c_size_t, c_void_p, c_size_t, i32, c_void_p, c_size_t, R(c_size_t))
