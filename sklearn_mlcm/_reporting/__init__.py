"""Turning computed results into things a person reads and keeps.

The evaluation object (``MLCMReport``), its tables, its self-contained page
(:mod:`._page`) and the atomic writing of files (:mod:`._files`). This folder
sits above the public functions, the uncertainty, the thresholds and the
displays, which it may import; only the command line (``_cli``) and the
package ``__init__`` import it.
"""
