""" Contains all the data models used in inputs/outputs """

from .activities_list_status import ActivitiesListStatus
from .activity_create_input_request import ActivityCreateInputRequest
from .activity_create_input_status_enum import ActivityCreateInputStatusEnum
from .activity_detail_output import ActivityDetailOutput
from .activity_detail_output_location import ActivityDetailOutputLocation
from .activity_list_output import ActivityListOutput
from .activity_location_request import ActivityLocationRequest
from .activity_output import ActivityOutput
from .activity_output_location import ActivityOutputLocation
from .activity_status_enum import ActivityStatusEnum
from .activity_update_input_status_enum import ActivityUpdateInputStatusEnum
from .agent_user_events_kind import AgentUserEventsKind
from .agent_user_events_stream_kind import AgentUserEventsStreamKind
from .book_detail_out import BookDetailOut
from .book_in_request import BookInRequest
from .book_list_out import BookListOut
from .book_out import BookOut
from .book_summary import BookSummary
from .chapter_in_request import ChapterInRequest
from .chapter_list_out import ChapterListOut
from .chapter_out import ChapterOut
from .chapter_save_request import ChapterSaveRequest
from .chapter_summary import ChapterSummary
from .chat_context_out import ChatContextOut
from .chat_request_request import ChatRequestRequest
from .chat_response import ChatResponse
from .chat_stream_event_delta import ChatStreamEventDelta
from .chat_stream_event_done import ChatStreamEventDone
from .chat_stream_event_error import ChatStreamEventError
from .chat_stream_event_intent import ChatStreamEventIntent
from .chat_stream_event_tool_call import ChatStreamEventToolCall
from .chat_stream_event_tool_result import ChatStreamEventToolResult
from .checked_enum import CheckedEnum
from .chunk_progress import ChunkProgress
from .chunk_state_enum import ChunkStateEnum
from .context import Context
from .context_create_in_request import ContextCreateInRequest
from .context_entry import ContextEntry
from .context_entry_in_request import ContextEntryInRequest
from .context_list import ContextList
from .context_summary import ContextSummary
from .default_operator_enum import DefaultOperatorEnum
from .degraded_reason_enum import DegradedReasonEnum
from .delivery import Delivery
from .delivery_list import DeliveryList
from .engine_enum import EngineEnum
from .error import Error
from .error_detail import ErrorDetail
from .error_detail_details import ErrorDetailDetails
from .event import Event
from .event_list import EventList
from .event_payload import EventPayload
from .export_end import ExportEnd
from .export_end_rows import ExportEndRows
from .export_end_type_enum import ExportEndTypeEnum
from .export_error_line import ExportErrorLine
from .export_error_line_error import ExportErrorLineError
from .export_error_line_type_enum import ExportErrorLineTypeEnum
from .export_kind import ExportKind
from .export_manifest import ExportManifest
from .export_manifest_counts import ExportManifestCounts
from .export_manifest_type_enum import ExportManifestTypeEnum
from .export_row import ExportRow
from .export_row_data import ExportRowData
from .export_row_type_enum import ExportRowTypeEnum
from .export_user import ExportUser
from .feedback import Feedback
from .feedback_in_request import FeedbackInRequest
from .feedback_input_request import FeedbackInputRequest
from .feedback_item import FeedbackItem
from .feedback_list import FeedbackList
from .feedback_rate_in_request import FeedbackRateInRequest
from .health import Health
from .health_embedding import HealthEmbedding
from .health_llm import HealthLlm
from .health_status_enum import HealthStatusEnum
from .health_worker_queues import HealthWorkerQueues
from .highlight import Highlight
from .hybrid_item import HybridItem
from .hybrid_search_in_request import HybridSearchInRequest
from .hybrid_search_out import HybridSearchOut
from .index_state_enum import IndexStateEnum
from .intent_enum import IntentEnum
from .kinds_enum import KindsEnum
from .language_enum import LanguageEnum
from .lexical_search_in_request import LexicalSearchInRequest
from .lexical_search_out import LexicalSearchOut
from .lexical_search_out_items_item import LexicalSearchOutItemsItem
from .location_request import LocationRequest
from .memory_messages_list_kind import MemoryMessagesListKind
from .memory_messages_list_role import MemoryMessagesListRole
from .memory_search_filter import MemorySearchFilter
from .memory_search_filter_time_range_type_0 import MemorySearchFilterTimeRangeType0
from .memory_understood import MemoryUnderstood
from .memory_understood_applied_enum import MemoryUnderstoodAppliedEnum
from .message import Message
from .message_item_in_request import MessageItemInRequest
from .message_kind_enum import MessageKindEnum
from .message_list_out import MessageListOut
from .message_status import MessageStatus
from .message_status_status_enum import MessageStatusStatusEnum
from .messages_write_in_request import MessagesWriteInRequest
from .messages_write_out import MessagesWriteOut
from .neighbors_out import NeighborsOut
from .order_enum import OrderEnum
from .participation_output import ParticipationOutput
from .patched_activity_update_input_request import PatchedActivityUpdateInputRequest
from .patched_context_entry_update_in_request import PatchedContextEntryUpdateInRequest
from .patched_message_update_in_request import PatchedMessageUpdateInRequest
from .patched_preference_update_in_request import PatchedPreferenceUpdateInRequest
from .patched_webhook_update_request import PatchedWebhookUpdateRequest
from .patched_writing_autosave_in_request import PatchedWritingAutosaveInRequest
from .preference import Preference
from .preference_in_request import PreferenceInRequest
from .preference_list import PreferenceList
from .provenance import Provenance
from .provenance_covers import ProvenanceCovers
from .provenance_scores import ProvenanceScores
from .provenance_source import ProvenanceSource
from .rating_enum import RatingEnum
from .read_as_enum import ReadAsEnum
from .reply_item import ReplyItem
from .retrieved_by_enum import RetrievedByEnum
from .role_enum import RoleEnum
from .score import Score
from .search_filters_request import SearchFiltersRequest
from .search_input_request import SearchInputRequest
from .search_location_request import SearchLocationRequest
from .search_meta import SearchMeta
from .search_output import SearchOutput
from .search_provenance import SearchProvenance
from .search_provenance_scores import SearchProvenanceScores
from .search_provenance_source import SearchProvenanceSource
from .search_provenance_source_type_enum import SearchProvenanceSourceTypeEnum
from .search_relevance import SearchRelevance
from .search_result import SearchResult
from .search_time_range_request import SearchTimeRangeRequest
from .semantic_item import SemanticItem
from .semantic_search_in_request import SemanticSearchInRequest
from .semantic_search_out import SemanticSearchOut
from .state_enum import StateEnum
from .stated_preference import StatedPreference
from .stream_delta import StreamDelta
from .stream_done import StreamDone
from .stream_intent import StreamIntent
from .stream_tool_call import StreamToolCall
from .stream_tool_call_arguments import StreamToolCallArguments
from .stream_tool_result import StreamToolResult
from .stream_tool_result_result import StreamToolResultResult
from .target_type_enum import TargetTypeEnum
from .token import Token
from .token_create_request import TokenCreateRequest
from .token_issued import TokenIssued
from .token_list import TokenList
from .tool_call import ToolCall
from .tool_call_arguments import ToolCallArguments
from .tool_call_result import ToolCallResult
from .understood import Understood
from .understood_place import UnderstoodPlace
from .understood_place_applied_enum import UnderstoodPlaceAppliedEnum
from .understood_time import UnderstoodTime
from .understood_time_applied_enum import UnderstoodTimeAppliedEnum
from .user_delete_out import UserDeleteOut
from .user_delete_out_deleted import UserDeleteOutDeleted
from .user_events_stream_event_activity_reminder import UserEventsStreamEventActivityReminder
from .user_events_stream_event_daily_digest import UserEventsStreamEventDailyDigest
from .user_events_stream_event_deadline_reminder import UserEventsStreamEventDeadlineReminder
from .user_events_stream_event_interest_spike import UserEventsStreamEventInterestSpike
from .webhook import Webhook
from .webhook_created import WebhookCreated
from .webhook_in_request import WebhookInRequest
from .webhook_list import WebhookList
from .writing_autosave_block_request import WritingAutosaveBlockRequest
from .writing_block_in_request import WritingBlockInRequest
from .writing_block_out import WritingBlockOut
from .writing_search_child import WritingSearchChild
from .writing_search_in_request import WritingSearchInRequest
from .writing_search_out import WritingSearchOut
from .writing_search_result import WritingSearchResult

__all__ = (
    "ActivitiesListStatus",
    "ActivityCreateInputRequest",
    "ActivityCreateInputStatusEnum",
    "ActivityDetailOutput",
    "ActivityDetailOutputLocation",
    "ActivityListOutput",
    "ActivityLocationRequest",
    "ActivityOutput",
    "ActivityOutputLocation",
    "ActivityStatusEnum",
    "ActivityUpdateInputStatusEnum",
    "AgentUserEventsKind",
    "AgentUserEventsStreamKind",
    "BookDetailOut",
    "BookInRequest",
    "BookListOut",
    "BookOut",
    "BookSummary",
    "ChapterInRequest",
    "ChapterListOut",
    "ChapterOut",
    "ChapterSaveRequest",
    "ChapterSummary",
    "ChatContextOut",
    "ChatRequestRequest",
    "ChatResponse",
    "ChatStreamEventDelta",
    "ChatStreamEventDone",
    "ChatStreamEventError",
    "ChatStreamEventIntent",
    "ChatStreamEventToolCall",
    "ChatStreamEventToolResult",
    "CheckedEnum",
    "ChunkProgress",
    "ChunkStateEnum",
    "Context",
    "ContextCreateInRequest",
    "ContextEntry",
    "ContextEntryInRequest",
    "ContextList",
    "ContextSummary",
    "DefaultOperatorEnum",
    "DegradedReasonEnum",
    "Delivery",
    "DeliveryList",
    "EngineEnum",
    "Error",
    "ErrorDetail",
    "ErrorDetailDetails",
    "Event",
    "EventList",
    "EventPayload",
    "ExportEnd",
    "ExportEndRows",
    "ExportEndTypeEnum",
    "ExportErrorLine",
    "ExportErrorLineError",
    "ExportErrorLineTypeEnum",
    "ExportKind",
    "ExportManifest",
    "ExportManifestCounts",
    "ExportManifestTypeEnum",
    "ExportRow",
    "ExportRowData",
    "ExportRowTypeEnum",
    "ExportUser",
    "Feedback",
    "FeedbackInputRequest",
    "FeedbackInRequest",
    "FeedbackItem",
    "FeedbackList",
    "FeedbackRateInRequest",
    "Health",
    "HealthEmbedding",
    "HealthLlm",
    "HealthStatusEnum",
    "HealthWorkerQueues",
    "Highlight",
    "HybridItem",
    "HybridSearchInRequest",
    "HybridSearchOut",
    "IndexStateEnum",
    "IntentEnum",
    "KindsEnum",
    "LanguageEnum",
    "LexicalSearchInRequest",
    "LexicalSearchOut",
    "LexicalSearchOutItemsItem",
    "LocationRequest",
    "MemoryMessagesListKind",
    "MemoryMessagesListRole",
    "MemorySearchFilter",
    "MemorySearchFilterTimeRangeType0",
    "MemoryUnderstood",
    "MemoryUnderstoodAppliedEnum",
    "Message",
    "MessageItemInRequest",
    "MessageKindEnum",
    "MessageListOut",
    "MessageStatus",
    "MessageStatusStatusEnum",
    "MessagesWriteInRequest",
    "MessagesWriteOut",
    "NeighborsOut",
    "OrderEnum",
    "ParticipationOutput",
    "PatchedActivityUpdateInputRequest",
    "PatchedContextEntryUpdateInRequest",
    "PatchedMessageUpdateInRequest",
    "PatchedPreferenceUpdateInRequest",
    "PatchedWebhookUpdateRequest",
    "PatchedWritingAutosaveInRequest",
    "Preference",
    "PreferenceInRequest",
    "PreferenceList",
    "Provenance",
    "ProvenanceCovers",
    "ProvenanceScores",
    "ProvenanceSource",
    "RatingEnum",
    "ReadAsEnum",
    "ReplyItem",
    "RetrievedByEnum",
    "RoleEnum",
    "Score",
    "SearchFiltersRequest",
    "SearchInputRequest",
    "SearchLocationRequest",
    "SearchMeta",
    "SearchOutput",
    "SearchProvenance",
    "SearchProvenanceScores",
    "SearchProvenanceSource",
    "SearchProvenanceSourceTypeEnum",
    "SearchRelevance",
    "SearchResult",
    "SearchTimeRangeRequest",
    "SemanticItem",
    "SemanticSearchInRequest",
    "SemanticSearchOut",
    "StatedPreference",
    "StateEnum",
    "StreamDelta",
    "StreamDone",
    "StreamIntent",
    "StreamToolCall",
    "StreamToolCallArguments",
    "StreamToolResult",
    "StreamToolResultResult",
    "TargetTypeEnum",
    "Token",
    "TokenCreateRequest",
    "TokenIssued",
    "TokenList",
    "ToolCall",
    "ToolCallArguments",
    "ToolCallResult",
    "Understood",
    "UnderstoodPlace",
    "UnderstoodPlaceAppliedEnum",
    "UnderstoodTime",
    "UnderstoodTimeAppliedEnum",
    "UserDeleteOut",
    "UserDeleteOutDeleted",
    "UserEventsStreamEventActivityReminder",
    "UserEventsStreamEventDailyDigest",
    "UserEventsStreamEventDeadlineReminder",
    "UserEventsStreamEventInterestSpike",
    "Webhook",
    "WebhookCreated",
    "WebhookInRequest",
    "WebhookList",
    "WritingAutosaveBlockRequest",
    "WritingBlockInRequest",
    "WritingBlockOut",
    "WritingSearchChild",
    "WritingSearchInRequest",
    "WritingSearchOut",
    "WritingSearchResult",
)
