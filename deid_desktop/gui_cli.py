"""The ``gui`` sub-command: opens the review window (imports Qt only when it runs)."""

from __future__ import annotations

import argparse


def _size(text: str) -> str:
    from .gui.app import parse_size

    try:
        parse_size(text)
    except ValueError as e:
        raise argparse.ArgumentTypeError(str(e)) from None
    return text


def cmd_gui(args: argparse.Namespace) -> int:
    import os
    import sys

    # Without a screen Qt aborts the process with a cryptic message; say what to do instead.
    if (
        sys.platform.startswith("linux")
        and not (os.environ.get("DISPLAY") or os.environ.get("WAYLAND_DISPLAY"))
        and not os.environ.get("QT_QPA_PLATFORM")
    ):
        if args.screenshot:
            os.environ["QT_QPA_PLATFORM"] = "offscreen"  # a screenshot needs no screen
        else:
            print("deid-desktop: no display found (DISPLAY is not set). Run it on a desktop session, "
                  "or under a virtual screen: xvfb-run -a deid-desktop gui ...", file=sys.stderr)
            return 2
    from .gui.app import run

    return run(args)


def register(sub) -> None:
    if "gui" in sub.choices:  # registering twice must not break the parser
        return
    g = sub.add_parser("gui", help="open the review window")
    g.add_argument("--workspace", help="workspace file (default: the one in Settings, else ~/.local/share/deid-desktop/workspace.sqlite)")
    g.add_argument("--open", nargs="+", default=[], metavar="FILE_OR_FOLDER", help="import these files and folders (each subfolder = one subject)")
    g.add_argument("--ensemble", help="ensemble TOML for this session (default: Settings, else resources/ensembles/default.toml)")
    g.add_argument("--build-models", action="store_true",
                   help="when the ensemble's transformer models are not built yet, build them in the background "
                        "(build-model --if-missing, a few minutes) and switch to them when ready; rules only until then")
    g.add_argument("--screenshot", metavar="OUT.png", help="wait for detection, select the first finding, save the window as PNG and exit")
    g.add_argument("--size", type=_size, default=None, metavar="WxH", help="window size, e.g. 1280x800")
    g.add_argument("--view", choices=("text", "pdf", "ocr", "risk", "across", "certificate", "accuracy", "adjudication"), default="text",
                   help="with --screenshot: the text, the PDF pages, a scanned PDF's pages, the queue riskiest first, the findings-across-documents list, the release certificate of an export of the queue, the accuracy on the reviewed documents, or the adjudication of double-reviewed documents")
    g.set_defaults(func=cmd_gui)
