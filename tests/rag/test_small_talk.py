"""Small talk: a query that only greets, thanks or asks the assistant about itself."""

from __future__ import annotations

import pytest

from rag.understand.small_talk import (
    addressed_small_talk,
    assistant_task,
    small_talk,
    without_greeting,
)


@pytest.mark.parametrize(
    "query",
    [
        "hey how are you",
        "Hi there! How's your week going?",
        "good morning, what's up",
        "thanks so much",
        "who are you?",
        "你好",
        "在吗？",
        "你叫什么名字呀",
        "你是谁呀，能陪我聊会天吗",
        "howya, how's it going",
        "how ya going mate",
        "what's the craic",
        "早晨",
        "你好呀 你系咪真人嚟㗎",
        "最近点呀",
        "食咗饭未",
        "唔该晒",
        "同我倾下偈啦",
    ],
)
def test_greetings_and_pleasantries_alone_are_small_talk(query):
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "what's on tonight",
        "hi, any hikes this weekend?",
        "今晚有没有什么聊天的局",
        "i'm bored",
        "something fun today",
        "thank you for the music event",
        "你好，周末有什么活动",
        "today",
        "howya, any trad sessions tonight?",
        "how yoga helps",
        "一个人喺广州好闷",
        "今晚有咩搞",
        "你好，边度可以行山",
        "",
    ],
)
def test_a_query_with_anything_else_in_it_is_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        # New Zealand, South Africa, Ireland, Hawaii.
        "kia ora, how are you",
        "mōrena",
        "howzit bru",
        "dia dhuit",
        "aloha!",
        # A person or a machine, in English and in several varieties of Chinese.
        "are you a bot or a real person?",
        "am i talking to a human",
        "what can you do",
        "你是真人还是机器人呀",
        "你是不是真人 说句话",
        "你是么斯撒",
        "你是啥玩意儿",
        "你在干啥呢",
        "食饱未",
        # Traditional script (Taiwan, Hong Kong).
        "你是誰",
        "謝謝你",
        "你是真人還是機器人呀",  # 還 folded by rag.understand.regional.TRADITIONAL, the one table
        "你係邊個",
    ],
)
def test_greetings_and_questions_to_the_service_in_other_varieties_are_small_talk(query):
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "kia ora, any walks this weekend?",
        "real person to talk to about hiking",
        "你是机器人吗 周末有什么好玩的",
        "说相声的演出",
        "有没有人一起打羽毛球撒",
        "aloha night hula class",
    ],
)
def test_a_greeting_with_a_request_is_still_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        # How are you said as it is spoken or texted (issue 30, session 41).
        "howzit, how you doing",
        "how u doin",
        "hows it goin",
        "hey, how's your day been?",
        "how've you been",
        "sup bro",
        "what's cracking",
        "you good?",
        "long time no see",
        "你好呀最近咋样",
        "好久不见 最近怎么样",
        "今天过得怎么样",
        "最近忙啥呢",
        "在吗 有空吗",
        "大家好",
        # What are you doing, said to the one spoken to (audit, session 41).
        "你最近在干嘛呢",
        "你在干嘛",
        "在干嘛呢",
        "你这几天干嘛呢",
    ],
)
def test_how_are_you_in_its_informal_forms_is_small_talk(query):
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        # Asked of a city's listings these ask what there is to do.
        "what's happening",
        "what's good",
        "what's going on in town",
        "how you doing on weekends, any hikes",
        "howzit, anything fun tmrw",
        "有空吗 周末爬山",
        "最近有什么活动",
        "干嘛好呢",
        # Bare, "what to do" in a search box (audit, session 41).
        "做什么",
        "这几天做什么",
        "这几天干嘛",
        "最近干啥",
    ],
)
def test_an_informal_greeting_with_a_request_or_asking_what_is_on_is_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        # Have you eaten, in the English of Singapore and Malaysia, and its particles (session 42).
        "hello bot, you eaten already?",
        "eat already or not",
        "you makan already?",
        "have you eaten yet",
        "hi lah",
        # Canadian "eh", and the northern Chinese chat words and forms of address.
        "how's it going eh",
        "hey bud",
        "你是机器人吗 陪我唠会儿",
        "陪我唠唠嗑呗",
        "咱俩侃会儿大山",
        "摆一哈龙门阵",
        "吃了么您",
        "老铁 在吗",
    ],
)
def test_greetings_of_more_varieties_are_small_talk(query):
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "eat",
        "where to eat lah",
        "eat already, any food tours?",
        "唠嗑的局",
        "亲子活动",
        "摆摊",
        "吃饭",
        "老铁 周末去哪玩",
    ],
)
def test_those_words_with_a_request_or_alone_are_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize("query", ["makan", "makan one", "had lunch", "ate"])
def test_a_meal_named_or_told_of_is_no_have_you_eaten(query):
    # Session 42 audit: "makan" alone is often a food query.
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "hello bot, you eaten already?",
        "you makan already or not",
        "makan already?",
        "sudah makan",
        "have you eaten yet",
        "eat already?",
        "had lunch already?",
    ],
)
def test_have_you_eaten_asked_is_still_small_talk(query):
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "哈喽 有人没",
        "有人吗",
        "有人在不",
        "在不",
        "在么",
        "anyone there?",
        "hello, is anybody there",
    ],
)
def test_asking_whether_anyone_is_there_is_small_talk(query):
    # Session 44: a chat window asked whether someone answers.
    assert small_talk(query)


@pytest.mark.parametrize(
    "query", ["有人一起爬山吗", "有没有人一起打球", "anyone around for tennis"]
)
def test_asking_for_someone_to_go_with_is_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query", ["alright our kid, you ok?", "alright love", "ey up duck", "now then", "you ok hun?"]
)
def test_a_british_greeting_with_a_regional_address_is_small_talk(query):
    # Session 47: "alright" alone and the regional addresses had left these unread.
    assert small_talk(query)


@pytest.mark.parametrize(
    "query", ["alright, any gigs tonight?", "paintballing with the lads", "pet friendly parks"]
)
def test_a_regional_address_beside_a_request_is_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize(
    "query", ["无聊 跟我讲个笑话", "给我说个段子", "tell me a joke", "sing me a song"]
)
def test_a_piece_of_work_asked_of_the_assistant_is_an_assistant_task(query):
    # Session 47: "tell me a joke" is asked of the one spoken to, not of the listings.
    assert assistant_task(query)


@pytest.mark.parametrize("query", ["story night for kids", "故事会", "听相声", "need a good laugh"])
def test_an_evening_of_stories_or_jokes_is_no_assistant_task(query):
    assert not assistant_task(query)


@pytest.mark.parametrize(
    "query",
    [
        "周末 来个故事会",
        "周末 写首诗 有诗歌沙龙吗",
        "any storytelling nights? tell me a story",
        "tell me a story about the city on a walking tour",
    ],
)
def test_an_evening_or_walk_of_stories_is_no_task_for_the_assistant(query):
    # An audit (session 47): these named something to go to.
    assert assistant_task(query) is False


@pytest.mark.parametrize(
    ("text", "rest"),
    [
        ("hi! any gigs tonight?", "any gigs tonight?"),
        ("hey there, anything fun", "anything fun"),
        ("你好，周末有什么好玩的", "周末有什么好玩的"),
        ("早上去爬山", "早上去爬山"),  # 早 opens a word, not the greeting
        ("hi", "hi"),  # a greeting alone stays what it is
        ("highland games", "highland games"),
        ("hello kitty cafe nearby", "hello kitty cafe nearby"),  # a name, no pause after it
        ("hi any gigs tonight", "any gigs tonight"),
    ],
)
def test_an_opening_greeting_is_left_out(text, rest):
    assert without_greeting(text) == rest


@pytest.mark.parametrize(
    "query", ["老乡 吃了没咧", "靓仔，食咗饭未啊", "yo mate, how ya going", "亲 在吗"]
)
def test_small_talk_after_a_form_of_address_is_addressed_small_talk(query):
    assert addressed_small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "火锅 咋样",
        "明天 有空吗",
        # Small talk alone is small_talk's, not this reading's.
        "你好 在吗",
        "老乡 周末去哪玩",
        # A request before a courtesy or a question: no address opens it (session 55's audit).
        "狼人杀 有人吗",
        "撸串 咋样",
        "约饭 在吗",
        "sushi? thanks",
        "something fun? thanks",
    ],
)
def test_a_request_before_a_courtesy_or_a_question_is_not(query):
    assert not addressed_small_talk(query)


@pytest.mark.parametrize(
    "query",
    [
        "keeping it chill tonight",
        "staying in tonight",
        "keepin it weird",
        "still open?",
        "still up for trivia?",
        "hey neighbor any board game nights",
        "sup, anything fun tonight?",
        "keeping it weird in portland, what to do",
        # The keeping / staying form and "neighbor" were withdrawn after the round's audit
        # found them emptying requests with a time ("still keeping it chill tonight").
        "still keeping it chill",
        "hey neighbor",
    ],
)
def test_a_plan_told_or_a_request_beside_keeping_is_not_small_talk(query):
    assert not small_talk(query)


@pytest.mark.parametrize("query", ["嗯恰饭了冇", "恰饭了没", "你恰了吗"])
def test_have_you_eaten_said_with_qia_is_small_talk(query):
    # Session 56: 恰, to eat in Jiangxi, Hunan and the southwest, asked with its closing particle.
    assert small_talk(query)


@pytest.mark.parametrize(
    "query",
    ["恰饭", "哪里恰饭", "明早恰么子早饭 想有人一起", "恰饭了冇 想找人一起恰", "恰饭不", "恰饭吗"],
)
def test_eating_with_qia_asked_for_is_not_small_talk(query):
    assert not small_talk(query)
