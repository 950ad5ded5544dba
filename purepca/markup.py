"""Text into HTML and SVG: the one escaper and the one template filler.

Every text purepca puts into a page or a picture (a title, a column name, a
label) goes through :func:`escape_text` before it is placed, and every
template is filled by :func:`fill_template` in one pass, so that a value can
never be read again as a marker, nor as markup.

=======================  ==================================================
``escape_text(s)``       ``& < > " '`` as character references: safe in
                         element text and in a quoted attribute, in HTML
                         and in XML (SVG)
``json_for_script(s)``   JSON text safe inside ``<script>...</script>``:
                         every ``<`` as ``\\u003c`` (no ``</script``, no
                         ``<!--``), and the line separators U+2028/9
``fill_template(t, v)``  ``%NAME%`` markers of ``t`` replaced by ``v[NAME]``
                         in one left-to-right pass; a value is never scanned
=======================  ==================================================

>>> escape_text('<b title="x">&</b>')
'&lt;b title=&quot;x&quot;&gt;&amp;&lt;/b&gt;'
>>> fill_template("<h1>%TITLE%</h1>%BODY%", {"TITLE": escape_text("%BODY%"), "BODY": "<p>"})
'<h1>%BODY%</h1><p>'
"""

from __future__ import annotations

import re
from typing import Mapping

from .errors import PurePCAError
from .params import check_text

__all__ = ["escape_text", "fill_template", "json_for_script"]

_REFERENCES = {"&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#x27;"}
_SPECIAL = re.compile("[&<>\"']")
_MARKER = re.compile(r"%([A-Z][A-Z0-9_]*)%")


def escape_text(text: str) -> str:
    """``text`` with ``& < > " '`` replaced by character references, for element text or a
    quoted attribute value in HTML or XML (SVG).

    Any other character stays as it is: the pages are UTF-8.

    >>> escape_text("a < b & c > 'd'")
    'a &lt; b &amp; c &gt; &#x27;d&#x27;'
    >>> escape_text("<!--<script>")
    '&lt;!--&lt;script&gt;'
    """
    return _SPECIAL.sub(lambda m: _REFERENCES[m.group()], str(text))


def json_for_script(json_text: str) -> str:
    """JSON text made safe to stand between ``<script type="application/json">`` and
    ``</script>``: ``<`` becomes ``\\u003c`` (so no ``</script``, ``<script`` or ``<!--`` can
    end or hide the block), and U+2028 / U+2029 their escapes.  ``JSON.parse`` reads back the
    same value.

    >>> json_for_script('{"title": "<!--<script></script>"}')
    '{"title": "\\\\u003c!--\\\\u003cscript>\\\\u003c/script>"}'
    """
    check_text(json_text, "json_for_script: json_text")
    return json_text.replace("<", "\\u003c").replace("\u2028", "\\u2028").replace("\u2029", "\\u2029")


def fill_template(template: str, values: Mapping[str, str]) -> str:
    """``template`` with each ``%NAME%`` replaced by ``values[NAME]``, in one pass over the
    template: a value is placed as it is and never searched for markers, so a title holding
    ``%SCRIPT%`` stays that text.  Values must already be escaped for where they go.

    >>> fill_template("%A%-%B%", {"A": "%B%", "B": "2"})
    '%B%-2'
    >>> fill_template("%A%", {})
    Traceback (most recent call last):
    ...
    purepca.errors.PurePCAError: fill_template: the template marker %A% has no value
    """
    check_text(template, "fill_template: template")

    def value(match: re.Match[str]) -> str:
        name = match.group(1)
        if name not in values:
            raise PurePCAError(f"fill_template: the template marker %{name}% has no value")
        return values[name]
    return _MARKER.sub(value, template)
