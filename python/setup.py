# SPDX-License-Identifier: MIT OR Apache-2.0
"""Builds a wheel that carries libperfbuf.

The shared library comes from one of two places:
  PERFBUF_PREBUILT=/path/to/libperfbuf.so (or perfbuf.dll): copied as is;
  otherwise cmake builds it from the repository this folder sits in
  (Release, BUILD_SHARED_LIBS=ON, no tests or tools) under build/cmake.
The wheel is tagged for the platform (py3-none-<platform>): it holds no
Python extension, only the library that ctypes loads.
"""
import os
import shutil
import subprocess
import sys

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

try:
    from wheel.bdist_wheel import bdist_wheel
except ImportError:  # no wheel package: sdist and install still work
    bdist_wheel = None

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)


def _library_name():
    return "perfbuf.dll" if sys.platform == "win32" else "libperfbuf.so"


def _build_library():
    prebuilt = os.environ.get("PERFBUF_PREBUILT")
    if prebuilt:
        if not os.path.isfile(prebuilt):
            raise SystemExit("PERFBUF_PREBUILT=%s is not a file" % prebuilt)
        return prebuilt
    build = os.path.join(HERE, "build", "cmake")
    subprocess.check_call(["cmake", "-S", REPO, "-B", build, "-DCMAKE_BUILD_TYPE=Release",
                           "-DBUILD_SHARED_LIBS=ON", "-DPERFBUF_BUILD_TESTS=OFF",
                           "-DPERFBUF_BUILD_TOOLS=OFF"])
    subprocess.check_call(["cmake", "--build", build, "-j2", "--target", "perfbuf"])
    built = os.path.join(build, _library_name())
    if not os.path.isfile(built):
        raise SystemExit("cmake did not produce %s" % built)
    return built


class BuildPyWithLibrary(build_py):
    def run(self):
        super().run()
        source = _build_library()
        # The name the loader looks for (a mingw build's libperfbuf.dll is
        # found under either name).
        target_name = os.path.basename(source) if source.endswith(".dll") else "libperfbuf.so"
        target = os.path.join(self.build_lib, "perfbuf", target_name)
        os.makedirs(os.path.dirname(target), exist_ok=True)
        # copyfile follows the soname symlink: the wheel holds the file itself.
        shutil.copyfile(source, target)


commands = {"build_py": BuildPyWithLibrary}

if bdist_wheel is not None:
    class PlatformWheel(bdist_wheel):
        def finalize_options(self):
            super().finalize_options()
            self.root_is_pure = False

        def get_tag(self):
            _, _, plat = super().get_tag()
            return "py3", "none", plat

    commands["bdist_wheel"] = PlatformWheel

class BinaryDistribution(Distribution):
    """Installs into platlib: the package carries a native library."""

    def has_ext_modules(self):
        return True


setup(packages=["perfbuf"], cmdclass=commands, distclass=BinaryDistribution)
