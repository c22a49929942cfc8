"""The five modes of the one agent: each a prompt style plus the tools it may use.

``get_agent_mode(intent)`` returns the :class:`AgentMode`. Every mode except CHAT also gets
the shared-context tools (``fetchContext``, ``updateContext``) and memory recall, because any
errand may need what the user said before or what other agents noted.
"""

from __future__ import annotations

from dataclasses import dataclass

from agent.intent_rules import CHAT, CREATE, EXPLORE, MANAGE, PARTNER
from agent.tool_registry import Tool, get_tools

BASE_PROMPT = (
    "你是「小忆」，一个记得用户偏好的中文生活助手。回答简洁、具体、友好，使用中文。"
    "只根据工具结果和提供的上下文陈述事实，不编造活动。工具只为当前登录用户服务，"
    "不要在参数里写用户 ID。"
)
SHARED_TOOLS = ("fetchContext", "updateContext", "recallMemory")


@dataclass(frozen=True)
class AgentMode:
    """A mode: its name, role, prompt and tool names."""

    name: str
    role: str
    prompt: str
    tool_names: tuple[str, ...]

    @property
    def tools(self) -> list[Tool]:
        return get_tools(self.tool_names)

    def tool_specs(self) -> list[dict]:
        """Return the mode's tools in OpenAI's format."""
        return [t.spec() for t in self.tools]

    def system_prompt(self) -> str:
        return f"{BASE_PROMPT}\n\n当前模式：{self.name}（{self.role}）。{self.prompt}"


MODES: dict[str, AgentMode] = {
    CHAT: AgentMode(
        "CHAT",
        "温暖的朋友",
        "像朋友一样闲聊，回应情绪，记住对方说过的偏好。不要调用工具，不要主动推销活动。",
        (),
    ),
    EXPLORE: AgentMode(
        "EXPLORE",
        "向导",
        "帮用户找到合适的活动：用 exploreNearby 搜索（时间、附近、类型、氛围），"
        "挑 3 个最合适的，说明时间、地点和为什么适合；没有结果时如实说明，只在确实因为时间或距离"
        "限制才没有结果时建议放宽。用户要报名时用 joinActivity（满员会被拒绝）；"
        "问某个活动的详情时用 getActivity；"
        "用户不要（或又要）活动前一天的提醒时用 setActivityReminder，问会不会提醒时用 "
        "getActivityReminders。",
        (
            "exploreNearby",
            "getActivity",
            "joinActivity",
            "setActivityReminder",
            "getActivityReminders",
            *SHARED_TOOLS,
        ),
    ),
    CREATE: AgentMode(
        "CREATE",
        "秘书",
        "帮用户组织活动：先用 createDraft 建草稿，再按用户要求用 refineDraft 修改，"
        "用户确认后才用 publishActivity 发布。每次回复复述草稿的标题、时间、地点、人数。",
        ("createDraft", "refineDraft", "publishActivity", "getActivity", *SHARED_TOOLS),
    ),
    PARTNER: AgentMode(
        "PARTNER",
        "红娘",
        "帮用户找同伴：用 createPartnerIntent 记录需求（活动类型、时间、描述），"
        "问进展（有人匹配上了吗）时用 getPartnerIntents，"
        "用户不想再找时先用 getPartnerIntents 再用 closePartnerIntent 停掉那一个，"
        "不清楚偏好时用 askPreference 询问。不要透露其他用户的身份。",
        (
            "createPartnerIntent",
            "getPartnerIntents",
            "closePartnerIntent",
            "askPreference",
            *SHARED_TOOLS,
        ),
    ),
    MANAGE: AgentMode(
        "MANAGE",
        "管家",
        "帮用户管理自己的活动：用 getMyActivities 查看报名和发起的活动，"
        "用户明确要求时才用 leaveActivity 退出报名的活动、cancelActivity 取消自己发起的活动，"
        "并说明结果；用户不要（或又要）活动前一天的提醒时用 setActivityReminder（不给 activityId "
        "就是今后所有的活动）；问会不会提醒、为什么没提醒、有哪些提醒时用 "
        "getActivityReminders；要取消某个按时间说过的提醒（“取消吃药的提醒”）时用 "
        "cancelTaskReminder。",
        (
            "getMyActivities",
            "getActivity",
            "leaveActivity",
            "cancelActivity",
            "setActivityReminder",
            "getActivityReminders",
            "cancelTaskReminder",
            *SHARED_TOOLS,
        ),
    ),
}


def get_agent_mode(intent: str) -> AgentMode:
    """Return the mode serving an intent (CHAT for anything unknown)."""
    return MODES.get(intent, MODES[CHAT])
