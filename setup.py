"""Build the Cython extensions of nardy_fast.

Every ``nardy_fast/<layer>/[<part>/]_*.pyx`` becomes an extension module (``nardy_fast.<layer>[.<part>]._*``); the C headers of
``nardy_fast/src`` (thread runtime, SIMD kernels, tables) are on the include path and
ship with the package (``nardy_fast.get_include()``).  Optimised (``-O3``) by default;
``NARDY_FAST_DEBUG=1`` builds ``-O0 -g`` with bounds and initialisation checks on.
Cython and the C compiler run ``NARDY_FAST_BUILD_JOBS`` jobs at once (default: every core).
"""
import glob
import os
import shutil
import sys

import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

try:
    from setuptools.modified import newer_group
except ImportError:                      # setuptools < 69
    from setuptools.dep_util import newer_group

JOBS = int(os.environ.get("NARDY_FAST_BUILD_JOBS", "0")) or os.cpu_count() or 1

if sys.byteorder != "little":
    sys.exit("nardy_fast: the C core assumes a little-endian machine")

DEBUG = os.environ.get("NARDY_FAST_DEBUG", "") not in ("", "0")

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": DEBUG,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
}
MSVC = sys.platform == "win32"           # cibuildwheel's Windows wheels: MSVC's flags
compile_args = (["/Od", "/Zi"] if DEBUG else ["/O2"]) if MSVC else (["-O0", "-g"] if DEBUG
                                                                   else ["-O3"])
thread_args = ["-pthread"] if os.name == "posix" else []   # the bear-off builders' threads

extensions = [
    Extension(
        os.path.splitext(path)[0].replace(os.sep, "."),
        [path],
        include_dirs=[np.get_include(), os.path.join("nardy_fast", "src")],
        extra_compile_args=compile_args + thread_args,
        extra_link_args=thread_args,
        define_macros=[("NPY_NO_DEPRECATED_API", "NPY_1_7_API_VERSION")],
        depends=sorted(glob.glob(os.path.join("nardy_fast", "src", "*.h"))),
    )
    for path in sorted(glob.glob(os.path.join("nardy_fast", "**", "_*.pyx"), recursive=True))
]



class ParallelBuildExt(build_ext):
    """``build_ext`` compiling ``JOBS`` extensions at once unless ``-j`` says otherwise
    (pip and ``python -m build`` give no ``-j``).

    For an in-place or editable build, an extension already in place and newer than its
    sources is taken as built: setuptools compiles into ``build/`` and then copies in place,
    judging "up to date" by the copy in ``build/``, which an editable install (built in a
    temporary folder) never leaves, so ``make build`` compiled everything twice.
    """

    def finalize_options(self):
        super().finalize_options()
        if not self.parallel:
            self.parallel = JOBS

    def run(self):
        self._in_place = bool(self.inplace or getattr(self, "editable_mode", False))
        super().run()

    def build_extension(self, ext):
        built = self.get_ext_fullpath(ext.name)
        in_place = os.path.join(*ext.name.split(".")[:-1], os.path.basename(built))
        if (getattr(self, "_in_place", False) and not self.force and os.path.exists(in_place)
                and not newer_group(list(ext.sources) + list(ext.depends), in_place)):
            os.makedirs(os.path.dirname(built), exist_ok=True)
            shutil.copy2(in_place, built)
            return
        super().build_extension(ext)


setup(ext_modules=cythonize(extensions, compiler_directives=directives, nthreads=JOBS),
      cmdclass={"build_ext": ParallelBuildExt})
