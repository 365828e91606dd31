"""Elements a page marks as holding its author (``rel=author``, ``itemprop=author``,
a class name holding "author", "byline" or "writer"): one definition for the
XPath pass over a tree and for the line walk, which reads those attributes anyway.

The walk keeps the marked elements it meets (:class:`Marks`); the subtrees it
does not enter (scripts, ``<noscript>``, hidden inline elements...) are read by
an XPath each (a leaf by its attributes), and both merge in document order: the
same list as the XPath over the whole tree, without its copy of every class.
"""

from __future__ import annotations

from collections.abc import Iterable

from lxml import etree

# In a class attribute, case as written; "username": a paste's, a video's or a forum
# post's poster, named by the platform rather than by a byline.
AUTHOR_WORDS = ("author", "byline", "writer", "username")
AUTHOR_VALUE = "author"  # the whole value of a rel or itemprop attribute
UNMARKED_TAGS = frozenset(("meta", "link"))  # their marks are metadata (meta.py reads them)


def _marks_path(nodes: str) -> str:
    words = " or ".join(f"contains(., '{word}')" for word in AUTHOR_WORDS)
    unmarked = " or ".join(f"self::{tag}" for tag in sorted(UNMARKED_TAGS))
    return (
        f"({nodes}/@class[{words}] | {nodes}/@rel[. = '{AUTHOR_VALUE}']"
        f" | {nodes}/@itemprop[. = '{AUTHOR_VALUE}'])/parent::*[not({unmarked})]"
    )


# (Attribute axes: twice as fast as testing every element's attributes.)
# (/descendant::*/@x: the attributes of every element, as //@x reads them, without
# first gathering every text node as //'s descendant-or-self::node() does.)
AUTHOR_MARKS = etree.XPath(_marks_path("/descendant::*"))
# The same, in one subtree (its root included). (One call per subtree: over a node-set
# of subtrees, libxml2's merge of their descendants grows with the square of their count.)
_SUBTREE_MARKS = etree.XPath(_marks_path("descendant-or-self::*"))
_MARKING_KEYS = frozenset(("class", "rel", "itemprop"))


_WORD_1, _WORD_2, _WORD_3, _WORD_4 = AUTHOR_WORDS


def name_marks(names: str) -> bool:
    """Whether a class attribute marks its element as the author."""
    return _WORD_1 in names or _WORD_2 in names or _WORD_3 in names or _WORD_4 in names


def marks_author(items: Iterable[tuple[str, str]]) -> bool:
    """Whether an element with these attributes is marked as the author (as
    :data:`AUTHOR_MARKS` tests them; its tag aside)."""
    for key, value in items:
        if key == "class":
            if name_marks(value):
                return True
        elif (key == "rel" or key == "itemprop") and value == AUTHOR_VALUE:
            return True
    return False


class Marks:
    """What the line walk of ``root`` saw of the author marks: the marked elements it
    read, and the roots of the subtrees it skipped, each with how many marked
    elements came before it."""

    __slots__ = ("read", "root", "unread")

    def __init__(self, root: etree._Element) -> None:
        self.root = root
        self.read: list[etree._Element] = []
        self.unread: list[tuple[int, etree._Element]] = []

    def elements(self) -> list[etree._Element]:
        """The marked elements of the root's document, in document order: what
        :data:`AUTHOR_MARKS` gives, when the walk read all of the root."""
        root, read = self.root, self.read
        if root.getparent() is not None:  # the walk read a part of the document
            return list(AUTHOR_MARKS(root))
        # Markup after </html> may leave a second top-level element beside the root.
        unread = [(0, el) for el in root.itersiblings(preceding=True)][::-1]
        unread += self.unread
        unread += [(len(read), el) for el in root.itersiblings()]
        out: list[etree._Element] = []
        done = 0  # marked elements of ``read`` put out
        for n, el in unread:
            if len(el):
                found = _SUBTREE_MARKS(el)
                if not found:
                    continue
            else:  # a leaf (a script, an input, a comment): its attributes are enough
                keys = el.keys()
                if not keys or _MARKING_KEYS.isdisjoint(keys) or el.tag in UNMARKED_TAGS:
                    continue
                if not marks_author(el.items()):
                    continue
                found = [el]
            out += read[done:n]
            done = n
            out += found
        out += read[done:]
        return out
