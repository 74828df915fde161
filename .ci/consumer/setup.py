"""Build consumer.pyx against the installed nardy_fast's headers and .pxd files."""
import numpy as np
from Cython.Build import cythonize
from setuptools import Extension, setup

import nardy_fast

setup(name="consumer", ext_modules=cythonize(
    [Extension("consumer", ["consumer.pyx"],
               include_dirs=[np.get_include(), nardy_fast.get_include()])]))
