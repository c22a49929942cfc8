"""Draw the adjacent-sentence similarity chart of a parent as inline SVG (server-side)."""

from __future__ import annotations

from html import escape

from django.utils.translation import gettext

WIDTH, HEIGHT, PAD = 760, 160, 28


def similarity_chart(sims: list[float], cuts: list[int], child_ends: list[int]) -> str:
    """Return an SVG polyline of similarities; red lines at cuts, grey ticks at child ends.

    ``child_ends`` are boundary indices (cut after sentence i) where a child closes.
    """
    if not sims:
        note = gettext("not compared: fewer than two sentences or too short for two children")
        return (
            '<svg width="360" height="24"><text x="0" y="16" font-size="12">'
            f"{escape(note)}</text></svg>"
        )
    lo, hi = min(sims), max(sims)
    span = (hi - lo) or 1.0
    n = len(sims)
    step = (WIDTH - 2 * PAD) / max(n - 1, 1)

    def xy(i: int, v: float) -> tuple[float, float]:
        return PAD + i * step, HEIGHT - PAD - (v - lo) / span * (HEIGHT - 2 * PAD)

    points = " ".join(f"{x:.1f},{y:.1f}" for x, y in (xy(i, v) for i, v in enumerate(sims)))
    parts = [
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" '
        f'viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-label="{escape(gettext("adjacent similarity"))}">',
        f'<rect x="0" y="0" width="{WIDTH}" height="{HEIGHT}" fill="#fff" stroke="#e5e7eb"/>',
    ]
    boundary = escape(gettext("child boundary"))
    for i in child_ends:
        x, _ = xy(i, lo)
        parts.append(
            f'<line x1="{x:.1f}" y1="{PAD}" x2="{x:.1f}" y2="{HEIGHT - PAD}" '
            f'stroke="#9ca3af" stroke-dasharray="2,3"><title>{boundary}</title></line>'
        )
    cut_title = gettext("cut after sentence %(i)s: %(sim)s")
    for i in cuts:
        x, y = xy(i, sims[i])
        parts.append(
            f'<line x1="{x:.1f}" y1="{PAD}" x2="{x:.1f}" y2="{HEIGHT - PAD}" stroke="#dc2626">'
            f"<title>{escape(cut_title % {'i': i, 'sim': f'{sims[i]:.3f}'})}</title></line>"
        )
    parts.append(f'<polyline fill="none" stroke="#2563eb" stroke-width="1.5" points="{points}"/>')
    for i, v in enumerate(sims):
        x, y = xy(i, v)
        parts.append(
            f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2" fill="#2563eb">'
            f"<title>{escape(f'{i}->{i + 1}: {v:.3f}')}</title></circle>"
        )
    parts.append(f'<text x="4" y="{PAD - 8}" font-size="11">{hi:.3f}</text>')
    parts.append(f'<text x="4" y="{HEIGHT - 8}" font-size="11">{lo:.3f}</text>')
    parts.append("</svg>")
    return "".join(parts)
