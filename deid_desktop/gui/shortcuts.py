"""The review window's actions in one table: id, keys, label, help and menu place.

The same table builds the window's actions (``window_menus.py`` binds a handler to each id
and fails on an id without one), the menus, the tooltips and Help → Keyboard shortcuts, so
neither the menus nor the documentation can drift from what the keys do.
"""

from __future__ import annotations

from dataclasses import dataclass

from PySide6.QtCore import Qt
from PySide6.QtGui import QKeySequence

from ..core.categories import CATEGORY_KEYS
from .palette import CATEGORY_LABELS


@dataclass(frozen=True, slots=True)
class Shortcut:
    action: str  # the id the main window binds a handler to
    keys: tuple[str, ...]  # QKeySequence strings; the first is shown in menus
    label: str  # menu text
    help: str  # one sentence for the tooltip and the help table
    group: str
    menu: str = ""  # "Menu/section" or "Menu/>Submenu": where the window puts its action


# Each menu's sections in order ("-" a separator, ">" a submenu); an action joins the section
# its ``menu`` names, in the order of the table below. The Model menu is built by
# ``gui/learning/menu.py``; the actions placed in it here follow its own entries.
MENUS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("&File", ("import", "-", "export", "-", "settings", "-", "quit")),
    ("&Edit", ("undo",)),
    (
        "&Review",
        ("decide", ">Relabel / add as", ">Add and &always flag as", "-", "bulk", "-", "identical", "-", ">Span &edges", "-", "finish", "-", "double"),
    ),
    ("&Navigate", ("move",)),
    ("&View", ("pages",)),
    ("&Model", ("reviewers",)),
    ("&Help", ("help",)),
)


REVIEW = "Review a finding"
BULK = "Decide many at once"
NAVIGATE = "Move around"
EDIT = "Correct a span"
PAGES = "PDF pages"
GENERAL = "Window"

SHORTCUTS: tuple[Shortcut, ...] = (
    Shortcut("accept", ("A",), "&Accept finding", "Confirm the selected finding is PHI and move to the next undecided one.", REVIEW, menu="&Review/decide"),
    Shortcut("reject", ("R", "Delete"), "&Reject finding", "Mark the selected finding as not PHI and move to the next undecided one.", REVIEW, menu="&Review/decide"),
    Shortcut(
        "reject_never_flag",
        ("Shift+R",),
        "Reject and &never flag this again",
        "Reject the selected finding and add its text to the workspace's allow list, so detection never flags it again (Ctrl+Z undoes both). "
        "For a known name, or text accepted as PHI in another document, it asks first and offers this document only.",
        REVIEW,
        menu="&Review/decide",
    ),
    Shortcut(
        "reject_never_flag_subject",
        ("Alt+Shift+R",),
        "Reject and never flag this again for this su&bject",
        "Reject the selected finding and never flag its text again in documents of this subject (this document, if it has no subject).",
        REVIEW,
        menu="&Review/decide",
    ),
    Shortcut("next", ("J", "N"), "&Next finding", "Select the next finding in the text.", NAVIGATE, menu="&Navigate/move"),
    Shortcut("previous", ("K", "P"), "&Previous finding", "Select the previous finding in the text.", NAVIGATE, menu="&Navigate/move"),
    Shortcut("next_document", ("Ctrl+PgDown",), "Next &document", "Open the next document in the queue.", NAVIGATE, menu="&Navigate/move"),
    Shortcut("previous_document", ("Ctrl+PgUp",), "Previous d&ocument", "Open the previous document in the queue.", NAVIGATE, menu="&Navigate/move"),
    Shortcut("accept_remaining", ("Shift+A",), "Accept all &remaining", "Accept every undecided finding in this document.", BULK, menu="&Review/bulk"),
    Shortcut("accept_remaining_category", ("Ctrl+Shift+A",), "Accept remaining of this &category", "Accept every undecided finding of the selected finding's category in this document.", BULK, menu="&Review/bulk"),
    Shortcut("accept_identical_document", ("Ctrl+I",), "Accept all &identical in document", "Accept every occurrence of the selected finding's exact text in this document, adding the ones the detectors missed.", BULK, menu="&Review/identical"),
    Shortcut("accept_identical_subject", ("Ctrl+Shift+I",), "Accept all identical in &subject", "Accept every occurrence of the selected finding's exact text in all documents of this subject, adding missed ones.", BULK, menu="&Review/identical"),
    Shortcut("reject_identical_document", ("Ctrl+R",), "Reject all identical in d&ocument", "Reject every finding with exactly the selected finding's text in this document.", BULK, menu="&Review/identical"),
    Shortcut("reject_identical_subject", ("Ctrl+Shift+R",), "Reject all identical in su&bject", "Reject every finding with exactly the selected finding's text in all documents of this subject.", BULK, menu="&Review/identical"),
    Shortcut(
        "review_across",
        ("Ctrl+Shift+F",),
        "Findings across &documents…",
        "List every finding of one category or one text in the whole queue or this subject, with the text around it; "
        "in that list A accepts, R rejects, 1–8 relabel, Accept all identical decides every copy, Enter opens the document.",
        BULK,
        menu="&Review/identical",
    ),
    Shortcut("widen_start", ("[",), "Widen start by a word", "Move the start of the selected span one word to the left.", EDIT, menu="&Review/>Span &edges"),
    Shortcut("shrink_start", ("{",), "Shrink start by a word", "Move the start of the selected span one word to the right ({ is Shift+[ on most keyboards).", EDIT, menu="&Review/>Span &edges"),
    Shortcut("widen_end", ("]",), "Widen end by a word", "Move the end of the selected span one word to the right.", EDIT, menu="&Review/>Span &edges"),
    Shortcut("shrink_end", ("}",), "Shrink end by a word", "Move the end of the selected span one word to the left (} is Shift+] on most keyboards).", EDIT, menu="&Review/>Span &edges"),
    *(
        Shortcut(
            f"category_{key}",
            (key,),
            f"{CATEGORY_LABELS[cat]}",
            f"Relabel the selected finding as {CATEGORY_LABELS[cat]}; with text selected, add it as a new {CATEGORY_LABELS[cat]} span.",
            EDIT,
            menu="&Review/>Relabel / add as",
        )
        for key, cat in CATEGORY_KEYS.items()
    ),
    *(
        Shortcut(
            f"always_flag_{key}",
            (f"Alt+{key}",),
            f"{CATEGORY_LABELS[cat]}",
            f"With text selected, add it as a new {CATEGORY_LABELS[cat]} span and always flag that text as {CATEGORY_LABELS[cat]} "
            f"(deny list); without a selection, accept the selected finding as {CATEGORY_LABELS[cat]} and always flag its text.",
            EDIT,
            menu="&Review/>Add and &always flag as",
        )
        for key, cat in CATEGORY_KEYS.items()
    ),
    Shortcut("undo", ("Ctrl+Z",), "&Undo", "Undo the last action (the decision stays in the audit log as undone).", EDIT, menu="&Edit/undo"),
    Shortcut("redo", ("Ctrl+Shift+Z", "Ctrl+Y"), "&Redo", "Redo the last undone action.", EDIT, menu="&Edit/undo"),
    Shortcut("mark_reviewed", ("Ctrl+Return", "Ctrl+Enter"), "&Mark document reviewed", "Record that this document has been fully reviewed.", REVIEW, menu="&Review/finish"),
    # Ctrl+= is Ctrl with the key that types + on US keyboards; Ctrl++ is the same key with Shift.
    Shortcut("zoom_in", ("Ctrl+=", "Ctrl++"), "Zoom &in", "Show the PDF's pages larger (or Ctrl + mouse wheel).", PAGES, menu="&View/pages"),
    Shortcut("zoom_out", ("Ctrl+-",), "Zoom &out", "Show the PDF's pages smaller (or Ctrl + mouse wheel).", PAGES, menu="&View/pages"),
    Shortcut("fit_width", ("Ctrl+0",), "&Fit page width", "Show the PDF's pages as wide as the view again.", PAGES, menu="&View/pages"),
    Shortcut(
        "accept_unread_page",
        ("Ctrl+Shift+U",),
        "Accept &unreadable page as it is",
        "Copy a scanned page OCR could read nothing from into the de-identified file as it is, instead of blacking it out (look at it first).",
        PAGES,
        menu="&View/pages",
    ),
    Shortcut("open", ("Ctrl+O",), "&Open files…", "Import files into the workspace (folders: File → Open folder, or drop them on the window).", GENERAL, menu="&File/import"),
    Shortcut("open_folder", ("Ctrl+Shift+O",), "Open &folder…", "Import a folder; each subfolder becomes one subject.", GENERAL, menu="&File/import"),
    Shortcut("export", ("Ctrl+E",), "&Export…", "Write de-identified copies of reviewed documents.", GENERAL, menu="&File/export"),
    Shortcut("find_document", ("Ctrl+F",), "&Find document", "Jump to the document filter.", GENERAL, menu="&Navigate/move"),
    Shortcut("mark_double_review", ("Ctrl+Alt+D",), "Mark for &double review", "Mark this document for a second, independent review: the next other reviewer to open it starts from the detector's findings, without seeing the first review.", REVIEW, menu="&Review/double"),
    Shortcut("sample_double_review", ("Ctrl+Alt+S",), "Sample the queue for double review…", "Mark a random share of the queue (N %) for a second, independent review.", REVIEW, menu="&Review/double"),
    Shortcut("adjudicate", ("Ctrl+Alt+J",), "Ad&judicate disagreements…", "Where the two reviewers of a document disagree, side by side: keep one, neither, or set the span by hand.", REVIEW, menu="&Review/double"),
    Shortcut("agreement", ("Ctrl+Alt+K",), "Reviewer a&greement…", "Cohen's kappa per word and span precision/recall of one reviewer against the other, per category.", REVIEW, menu="&Model/reviewers"),
    Shortcut("settings", ("Ctrl+,",), "&Settings…", "Ensemble, models, surrogates, workspace and reviewer name.", GENERAL, menu="&File/settings"),
    Shortcut("shortcuts_help", ("F1",), "&Keyboard shortcuts", "Show this table.", GENERAL, menu="&Help/help"),
    Shortcut("quit", ("Ctrl+Q",), "&Quit", "Close the window; every decision is already saved.", GENERAL, menu="&File/quit"),
)

BY_ACTION: dict[str, Shortcut] = {s.action: s for s in SHORTCUTS}

ADJUDICATE = "Adjudicate (in its window)"
# Keys of the adjudication window, which has the focus while it is open.
ADJUDICATION: tuple[Shortcut, ...] = (
    Shortcut("pick_left", ("Left",), "Keep left", "Keep the first reviewer's spans in this place.", ADJUDICATE),
    Shortcut("pick_right", ("Right",), "Keep right", "Keep the second reviewer's spans in this place.", ADJUDICATE),
    Shortcut("neither", ("0",), "Neither", "No PHI in this place: drop both reviewers' spans.", ADJUDICATE),
    Shortcut("edit", ("E",), "Edit…", "Set the span by hand: select the words and pick the category.", ADJUDICATE),
    Shortcut("previous", ("K",), "Previous", "Go to the previous disagreement.", ADJUDICATE),
    Shortcut("next", ("J",), "Next", "Go to the next disagreement (into the next document at the end of one).", ADJUDICATE),
)


def tooltip(action: str) -> str:
    s = BY_ACTION[action]
    keys = " or ".join(s.keys)
    return f"{s.help} ({keys})"


def help_rows() -> list[tuple[str, str, str]]:
    """(group, keys, what it does) in display order."""
    return [(s.group, " / ".join(s.keys), s.help) for s in (*SHORTCUTS, *ADJUDICATION)]


# The character Shift types on each key of a US keyboard that has one (letters aside).
_SHIFTED = dict(zip("`1234567890-=[]\\;',./", '~!@#$%^&*()_+{}|:"<>?'))
_UNSHIFTED = {v: k for k, v in _SHIFTED.items()}
_SHIFT = Qt.KeyboardModifier.ShiftModifier


def _portable(mods: Qt.KeyboardModifier, key: str) -> str:
    return QKeySequence(QKeySequence(key)[0].key() | mods).toString(QKeySequence.SequenceFormat.PortableText)


def reported_combinations(sequence: str) -> set[str]:
    """The key combinations a desktop key mapper reports for the press ``sequence`` stands for.

    Qt's xkb (Linux), Windows and macOS key mappers report a shifted symbol key both as the
    base key with every modifier held ("Shift+[") and as the typed character without Shift
    ("{"), and match shortcuts against each. When two registered sequences match one press —
    even two sequences of the same action — Qt calls the press ambiguous and fires nothing, so
    the table must never list both forms. The offscreen test platform reports only one of them,
    which is why the table is checked against this model of the desktop mappers."""
    combo = QKeySequence(sequence)[0]
    mods = combo.keyboardModifiers()
    key = QKeySequence(combo.key()).toString(QKeySequence.SequenceFormat.PortableText)
    if key in _UNSHIFTED:  # "{" is typed as Shift+[
        mods, key = mods | _SHIFT, _UNSHIFTED[key]
    combos = {_portable(mods, key)}
    if mods & _SHIFT and key in _SHIFTED:
        combos.add(_portable(mods & ~_SHIFT, _SHIFTED[key]))
    return combos


def conflicts() -> list[tuple[str, str, str]]:
    """(action, sequence, other action) for every press that would match a second listed
    sequence — Qt's "Ambiguous shortcut overload", where the key does nothing."""
    listed = [(s.action, QKeySequence(k).toString(QKeySequence.SequenceFormat.PortableText)) for s in SHORTCUTS for k in s.keys]
    found = []
    for action, seq in listed:
        pressed = reported_combinations(seq)
        for other_action, other in listed:
            if (other_action, other) != (action, seq) and other in pressed:
                found.append((action, seq, other_action))
    return found
