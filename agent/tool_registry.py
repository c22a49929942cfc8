"""The registry of the agent's tools: a name, a description, a JSON schema and a function.

:func:`tool` registers a function of agent/tools.py or agent/tools_memory.py (both imported by
the app's ``ready``, so every tool is registered before a turn asks for one); :meth:`Tool.run`
strips any user-identifying key a model sends (``user_id``, ``userId``, ``user``, ``owner``)
before calling, so a model can never act for somebody else, and turns service errors into
``{"error": {"code", "message"}}`` results the model (or the offline composer) can read, instead
of failing the turn.
"""

from __future__ import annotations

import logging
from collections.abc import Callable
from dataclasses import dataclass

from config.errors import ServiceError

logger = logging.getLogger(__name__)

FORBIDDEN_ARGUMENTS = frozenset({"user_id", "userId", "user", "owner", "owner_id", "creator"})


@dataclass
class Tool:
    """A callable the agent may use: its name, description, parameter schema and function."""

    name: str
    description: str
    parameters: dict
    func: Callable[..., dict]
    chat_scoped: bool = False  # func also takes the turn's chat_id

    def spec(self) -> dict:
        """Return the tool in OpenAI's function-calling format."""
        return {
            "type": "function",
            "function": {
                "name": self.name,
                "description": self.description,
                "parameters": self.parameters,
            },
        }

    def clean_arguments(self, arguments: dict | None) -> dict:
        """Return the arguments the schema knows, without any user-identifying key."""
        arguments = dict(arguments or {})
        for key in FORBIDDEN_ARGUMENTS & set(arguments):
            logger.warning("tool %s: ignoring %r sent by the model", self.name, key)
            arguments.pop(key)
        known = set(self.parameters.get("properties", {}))
        return {k: v for k, v in arguments.items() if k in known and v not in (None, "")}

    def run(self, user, arguments: dict | None, *, chat_id: str | None = None) -> dict:
        """Call the tool for the authenticated ``user`` in chat ``chat_id``; errors come back."""
        cleaned = self.clean_arguments(arguments)
        try:
            if self.chat_scoped:
                return self.func(user, chat_id=chat_id, **cleaned)
            return self.func(user, **cleaned)
        except ServiceError as exc:
            error = {"code": exc.code, "message": exc.message}
            if exc.details:
                error["details"] = exc.details  # e.g. {"reason": "full"} of a join
            return {"error": error}
        except (TypeError, ValueError, OverflowError) as exc:
            # Arguments come from an LLM: a bad one is the model's error, told back to it.
            return {"error": {"code": "INVALID_ARGUMENT", "message": str(exc)}}


REGISTRY: dict[str, Tool] = {}


def tool(
    name: str,
    description: str,
    properties: dict,
    required: tuple[str, ...] = (),
    *,
    chat_scoped: bool = False,
):
    """Register the decorated function as a tool with an object schema."""

    def decorate(func):
        schema = {"type": "object", "properties": properties, "additionalProperties": False}
        if required:
            schema["required"] = list(required)
        REGISTRY[name] = Tool(name, description, schema, func, chat_scoped)
        return func

    return decorate


def get_tools(names) -> list[Tool]:
    """Return the registered tools with these names, in order."""
    return [REGISTRY[n] for n in names]
