# SPDX-License-Identifier: MIT OR Apache-2.0
import sys

from ._dump import main

sys.exit(main())
