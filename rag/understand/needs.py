"""A need stated, not asked: a restless body or mood that going out answers.

"my dog is bored lol", 「娃在家憋坏了」, 「心里憋得慌」, "need to burn some calories before the
turkey": the person says what they, or someone they care for (a child, a pet, a parent), feel
or need, and the ask (something to do) is implicit. The dense model reads such a query as the
pet, health or family talk it sounds like, near the example requests for something else
(rag.intent), and the intent gate emptied it (fresh14, issue 30, session 45). The form is read
here, so the intent gate leaves it to the margin gates, as it does a request to learn or for
company (rag.understand.requests). A request for information ("why is my dog bored", "how many
calories does running burn") is not such a need: ``rag.understand.information_request`` reads
it first.

The forms are general Chinese and English for cooped-up restlessness (bored, restless, stir
crazy, 憋坏了, 闷得慌, 闲不住), energy or steam to let out (burn off energy, blow off steam, 发泄,
放电, 出身汗) and wanting air (透透气), written from general knowledge after fresh14's four
such queries were seen answered empty; on the fifteen development sets no off-topic query
holds one. Being bored *of* something (a job, a routine) is still restless: "bored of the
same old routine, want to try something new" asks for an outing too. "boring" describes a
thing, not the person ("anything he wouldn't find boring"), and is not read; nor is 无聊 before
的 (「无聊的电影」, a boring film) or "restless legs" (a condition).
"""

from __future__ import annotations

import re

from rag.understand.cues import form_text

_ZH_NEED = re.compile(
    # Not 憋死 (holding it in), 憋屈 (a grievance) nor a phone's 放电 (its battery draining).
    r"憋(?:得慌|坏|疯|闷)|闷(?:得慌|坏|疯|死)|无聊(?!的)|闲得慌|闲不住|发泄|透透气|"
    r"(?:放放|去放|放个|出去放)电|(?:孩子|娃|小孩|狗)[^，,。？?]{0,4}放电|"
    r"出(?:出|一身|身)?汗|消耗(?:体力|精力|卡路里|热量)|(?:吼|嚎|喊|唱)(?:两|一)嗓子"
)
_EN_NEED = re.compile(
    r"\b(?:bored|restless(?!\s+legs?\b)|cooped\s+up|stir[\s-]crazy|cabin\s+fever|antsy|"
    r"climbing\s+the\s+walls|bouncing\s+off\s+the\s+walls)\b"
    r"|\b(?:(?:burn|burning|work|working)\s+off|burn|burning)\s+"
    r"(?:some\s+|my\s+|(?:all\s+)?(?:that|this|the)\s+)?(?:calories|energy|steam|stress)\b"
    r"|\b(?:sweat(?:ing)?\s+it\s+out|get(?:ting)?\s+sweaty|(?:work|break)(?:ing)?\s+(?:up\s+)?a\s+sweat)\b"
    r"|\b(?:blow|let|blowing|letting)\s+off\s+(?:some\s+)?steam\b"
    r"|\b(?:full\s+of|too\s+much|so\s+much)\s+energy\b"
)


def need_request(text: str) -> bool:
    """Return whether the query states a restless need an outing answers ("my dog is bored",
    「在家憋坏了」, "need to burn off some energy")."""
    normalised = form_text(text)
    if not normalised:
        return False
    return bool(_ZH_NEED.search(normalised) or _EN_NEED.search(normalised))
