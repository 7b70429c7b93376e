# SPDX-License-Identifier: MIT OR Apache-2.0
"""The caller's bytes, held without a copy for as long as a view needs them.

PyObject_GetBuffer gives the address of a bytes, bytearray or memoryview
and, for the mutable ones, an export that stops the object from being
resized or freed until PyBuffer_Release: a parse never reads memory that
moved under it. The export is released when the last view goes away.
"""
import ctypes
import weakref


class _PyBuffer(ctypes.Structure):
    # Py_buffer (Include/pybuffer.h), unchanged since Python 3.3.
    _fields_ = [("buf", ctypes.c_void_p), ("obj", ctypes.py_object), ("len", ctypes.c_ssize_t),
                ("itemsize", ctypes.c_ssize_t), ("readonly", ctypes.c_int),
                ("ndim", ctypes.c_int), ("format", ctypes.c_char_p),
                ("shape", ctypes.c_void_p), ("strides", ctypes.c_void_p),
                ("suboffsets", ctypes.c_void_p), ("internal", ctypes.c_void_p)]


_get = ctypes.pythonapi.PyObject_GetBuffer
_get.argtypes = [ctypes.py_object, ctypes.POINTER(_PyBuffer), ctypes.c_int]
_get.restype = ctypes.c_int
_release = ctypes.pythonapi.PyBuffer_Release
_release.argtypes = [ctypes.POINTER(_PyBuffer)]
_release.restype = None

_PyBUF_C_CONTIGUOUS = 0x0020 | 0x0008  # PyBUF_C_CONTIGUOUS (includes PyBUF_STRIDES)


def _release_view(view):
    _release(ctypes.byref(view))


class Buffer:
    """An exported, C-contiguous byte buffer: address, length and the object."""

    __slots__ = ("obj", "address", "size", "_view", "_finalizer", "__weakref__")

    def __init__(self, obj):
        if not isinstance(obj, (bytes, bytearray, memoryview)):
            raise TypeError("perfbuf reads bytes, bytearray or memoryview, not %s"
                            % type(obj).__name__)
        view = _PyBuffer()
        if _get(obj, ctypes.byref(view), _PyBUF_C_CONTIGUOUS) != 0:
            raise BufferError("perfbuf needs a C-contiguous buffer")
        self._view = view
        self._finalizer = weakref.finalize(self, _release_view, view)
        self.obj = obj
        self.address = view.buf or 0
        self.size = view.len

    def tobytes(self):
        return ctypes.string_at(self.address, self.size) if self.size else b""

    def read(self, offset, length):
        """length bytes at offset (a copy of that slice only)."""
        return ctypes.string_at(self.address + offset, length) if length else b""
