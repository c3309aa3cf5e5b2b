"""Writes tests/data/sentences.json: a few hundred varied texts for the embedder parity test
(accents, CJK, emoji, punctuation, casing, unknown words, a very long text)."""

import json
import pathlib

subjects = ["I", "My wife Sarah", "Tom", "The team", "Our neighbour Zoë", "Dr. Müller", "My boss"]
verbs = ["likes", "hates", "is allergic to", "wants to visit", "is reading about", "cooked", "forgot"]
objects = ["peanuts", "Lisbon in spring", "the café on Rue de l'Église", "jalapeño poppers",
           "naïve Bayes classifiers", "Tōkyō ramen", "São Paulo", "smörgåsbord", "crème brûlée"]
out = []
for i, s in enumerate(subjects):
    for j, v in enumerate(verbs):
        for k, o in enumerate(objects):
            if (i + j + k) % 3 == 0:
                out.append(f"{s} {v} {o}.")
out += [
    "東京で寿司を食べるのが好きです", "我喜欢喝绿茶", "저는 김치를 좋아해요", "Я люблю читать книги",
    "مرحبا بالعالم", "Ελληνικά γράμματα", "ผมชอบกินข้าวผัด", "हिंदी में लिखा गया वाक्य",
    "🎉🎉🎉", "I love 🍕 and 🍣!", "👩‍👩‍👧 family time", "🙂", "", " ", "\t\n",
    "!!!???...", "—–-‐", "«quoted» „text“ ‘here’", "C++ & C# vs. Rust/Go; (really?)",
    "HTML <b>bold</b> &amp; entities", "e-mail: someone at example dot org",
    "ALL CAPS SHOUTING ABOUT DEADLINES", "mIxEd CaSe WoRdS", "supercalifragilisticexpialidocious",
    "xqzv blorp fnord", "A" * 300, "a b c d e f g h i j k l m n o p", "[MASK] [CLS] [SEP] tokens",
    "[UNK] is unknown", "résumé naïve façade coöperate", "ﬁnancial ligature ﬂow", "Ⅻ roman numeral",
    "ＦＵＬＬＷＩＤＴＨ text", "zero\u200bwidth space", "combining e\u0301 accent", "tab\tseparated\tvalues",
    "line one\nline two\r\nline three", "under_score and camelCase and kebab-case",
    "Meeting on 2026-03-01 at 12:00", "Price is 3.50 euros", "Call me maybe", "Ünïcödé everywhere",
]
long_words = ["memory", "agents", "forget", "everything", "between", "conversations", "remember",
              "café", "東京", "🙂", "naïve", "the", "of", "and"]
out.append(" ".join(long_words[i % len(long_words)] for i in range(1800)))
out.append("café 東京 " * 1000)
out.append(("word " * 700).strip())
out.append(" ".join(f"token{i % 97}" for i in range(1500)))
for n in range(120):
    out.append(f"Fact number {n}: the {objects[n % len(objects)]} reminds {subjects[n % len(subjects)]} of {verbs[n % len(verbs)]} things")
uniq = list(dict.fromkeys(out))  # first occurrences, in order
path = pathlib.Path(__file__).parent / "data" / "sentences.json"
path.write_text(json.dumps(uniq, ensure_ascii=False, indent=0) + "\n", encoding="utf-8")
print(len(uniq), "sentences")
