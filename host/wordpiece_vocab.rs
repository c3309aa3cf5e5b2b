//! Turns each embedded model's `tokenizer.json` into Rust source in `OUT_DIR`: its
//! vocabulary as sorted arrays the tokenizer (`src/embedder/wordpiece.rs`) binary-searches,
//! and the few numbers each model's pooling needs. Parsing hundreds of kilobytes of JSON
//! and building a lookup structure at run time cost every process that embedded 10 to 15
//! ms; done here, there is nothing to load.
//!
//! The tokenizer implements one pipeline (BERT's normalizer and pre-tokenizer, WordPiece),
//! so this refuses, at build time, a model that asks for anything else.

use std::fmt::Write as _;
use std::path::Path;

use anyhow::{Context, Result, bail, ensure};
use serde_json::{Value, json};

/// `static_vocab.rs` from `host/model/`: the vocabulary, model2vec's character cut, and
/// where the int8 embedding table starts in `model.safetensors`.
pub fn generate_static(model_dir: &Path, out: &Path) -> Result<()> {
    let tokenizer = read_json(&model_dir.join("tokenizer.json"))?;
    let config = read_json(&model_dir.join("config.json"))?;
    ensure!(
        config["normalize"] == true && config["pooling"] == "mean",
        "the run-time pooling is a normalized mean; the model's config asks for {config}"
    );
    let vocab = Vocabulary::of(&tokenizer)?;
    let (rows, cols, start) = embeddings_layout(&model_dir.join("model.safetensors"))?;
    ensure!(
        vocab.tokens.iter().all(|&(_, id)| (id as usize) < rows),
        "a token id is beyond the embedding table's {rows} rows"
    );
    // model2vec cuts a text at 512 tokens' worth of characters (the median token length,
    // in bytes, times 512) before tokenizing: the same cut keeps the same vectors.
    let mut lengths: Vec<usize> = vocab.tokens.iter().map(|(t, _)| t.len()).collect();
    lengths.sort_unstable();
    let median = lengths.get(lengths.len() / 2).copied().unwrap_or(1);

    let mut src = vocab.source()?;
    writeln!(src, "/// The median token length, in bytes.")?;
    writeln!(src, "pub(super) const MEDIAN_TOKEN_LEN: usize = {median};")?;
    writeln!(
        src,
        "/// The embedding table: int8, `ROWS` x `COLS`, from byte `EMBEDDINGS_AT` of the file."
    )?;
    writeln!(src, "pub(super) const ROWS: usize = {rows};")?;
    writeln!(src, "pub(super) const COLS: usize = {cols};")?;
    writeln!(src, "pub(super) const EMBEDDINGS_AT: usize = {start};")?;
    write(out, &src)
}

/// `transformer_vocab.rs` from `host/model/transformer/`: the vocabulary, the tokens that
/// frame every sequence, and its length limit.
pub fn generate_transformer(model_dir: &Path, out: &Path) -> Result<()> {
    let tokenizer = read_json(&model_dir.join("tokenizer.json"))?;
    let vocab = Vocabulary::of(&tokenizer)?;
    let truncation = &tokenizer["truncation"];
    ensure!(
        truncation["direction"] == "Right" && truncation["stride"] == 0,
        "the transformer's truncation is {truncation}"
    );
    ensure!(
        truncation["strategy"] == "LongestFirst",
        "the transformer's truncation is {truncation}"
    );
    let max_length = truncation["max_length"]
        .as_u64()
        .context("the truncation's max_length")?;
    ensure!(
        max_length >= 2,
        "a max_length of {max_length} leaves no room for [CLS] and [SEP]"
    );
    ensure!(
        tokenizer["padding"].is_null(),
        "the transformer's tokenizer pads: {}",
        tokenizer["padding"]
    );
    let single = &tokenizer["post_processor"]["single"];
    let expected = json!([
        {"SpecialToken": {"id": "[CLS]", "type_id": 0}},
        {"Sequence": {"id": "A", "type_id": 0}},
        {"SpecialToken": {"id": "[SEP]", "type_id": 0}},
    ]);
    ensure!(
        *single == expected,
        "the transformer frames a text as {single}, not {expected}"
    );
    for special in ["[CLS]", "[SEP]"] {
        let ids = &tokenizer["post_processor"]["special_tokens"][special]["ids"];
        ensure!(
            *ids == json!([vocab.id_of(special)?]),
            "the post-processor's {special} is {ids}, not the vocabulary's"
        );
    }

    let mut src = vocab.source()?;
    writeln!(src, "/// Opens every sequence.")?;
    writeln!(src, "pub(super) const CLS: u32 = {};", vocab.id_of("[CLS]")?)?;
    writeln!(src, "/// Closes every sequence.")?;
    writeln!(src, "pub(super) const SEP: u32 = {};", vocab.id_of("[SEP]")?)?;
    writeln!(src, "/// The longest sequence, [CLS] and [SEP] included.")?;
    writeln!(src, "pub(super) const MAX_LENGTH: usize = {max_length};")?;
    write(out, &src)
}

/// A WordPiece vocabulary read from a `tokenizer.json`.
struct Vocabulary<'a> {
    /// Sorted by the token's bytes.
    tokens: Vec<(&'a str, u32)>,
    added: Vec<(&'a str, u32)>,
    unk: u32,
    max_input_chars_per_word: u64,
}

impl<'a> Vocabulary<'a> {
    fn of(tokenizer: &'a Value) -> Result<Self> {
        check_pipeline(tokenizer)?;
        let model = &tokenizer["model"];
        let vocab = model["vocab"].as_object().context("the WordPiece vocabulary")?;
        let mut tokens: Vec<(&str, u32)> = vocab
            .iter()
            .map(|(token, id)| Ok((token.as_str(), u32::try_from(id.as_u64().context("a token id")?)?)))
            .collect::<Result<_>>()?;
        tokens.sort_unstable_by(|a, b| a.0.as_bytes().cmp(b.0.as_bytes()));
        let mut this = Vocabulary {
            tokens,
            added: Vec::new(),
            unk: 0,
            max_input_chars_per_word: model["max_input_chars_per_word"]
                .as_u64()
                .context("max_input_chars_per_word")?,
        };
        this.unk = this.id_of(model["unk_token"].as_str().context("unk_token")?)?;
        // Added tokens are matched in the raw text before normalization; the tokenizer
        // tries the longest first, as the `tokenizers` crate matches leftmost-longest.
        for token in tokenizer["added_tokens"].as_array().context("added_tokens")? {
            ensure!(
                ["normalized", "single_word", "lstrip", "rstrip"]
                    .iter()
                    .all(|flag| token[flag].as_bool() == Some(false)),
                "added token {token}: only plain, unnormalized added tokens are implemented"
            );
            let content = token["content"].as_str().context("an added token's content")?;
            ensure!(!content.is_empty(), "an empty added token");
            this.added.push((content, this.id_of(content)?));
        }
        this.added
            .sort_unstable_by(|a, b| b.0.len().cmp(&a.0.len()).then(a.0.cmp(b.0)));
        Ok(this)
    }

    fn id_of(&self, token: &str) -> Result<u32> {
        let at = self
            .tokens
            .binary_search_by(|(t, _)| t.as_bytes().cmp(token.as_bytes()))
            .map_err(|_| anyhow::anyhow!("{token:?} is not in the vocabulary"))?;
        Ok(self.tokens[at].1)
    }

    /// `VOCAB`, a `Vocab` of flat arrays: a `&str` per token would cost every process,
    /// embedding or not, tens of thousands of relocations at start.
    fn source(&self) -> Result<String> {
        let text: String = self.tokens.iter().map(|(t, _)| *t).collect();
        let mut ends = Vec::with_capacity(self.tokens.len());
        let mut end = 0;
        for (token, _) in &self.tokens {
            end += token.len();
            ends.push(u32::try_from(end)?);
        }
        let ids: Vec<u32> = self.tokens.iter().map(|&(_, id)| id).collect();
        let longest = self.tokens.iter().map(|(t, _)| t.len()).max().unwrap_or(1);
        let mut src = String::from("// Generated by host/wordpiece_vocab.rs: do not edit.\n\n");
        writeln!(src, "static ENDS: [u32; {}] = {ends:?};", ends.len())?;
        writeln!(src, "static IDS: [u32; {}] = {ids:?};", ids.len())?;
        writeln!(src, "/// The model's WordPiece vocabulary.")?;
        writeln!(
            src,
            "pub(crate) static VOCAB: crate::embedder::wordpiece::Vocab = crate::embedder::wordpiece::Vocab {{"
        )?;
        writeln!(src, "    text: {text:?},")?;
        writeln!(src, "    ends: &ENDS,")?;
        writeln!(src, "    ids: &IDS,")?;
        writeln!(src, "    added: &{:?},", self.added)?;
        writeln!(src, "    unk: {},", self.unk)?;
        writeln!(src, "    longest: {longest},")?;
        writeln!(src, "    max_input_chars_per_word: {},", self.max_input_chars_per_word)?;
        writeln!(src, "}};")?;
        Ok(src)
    }
}

/// The one pipeline the run-time tokenizer implements.
fn check_pipeline(tokenizer: &Value) -> Result<()> {
    let normalizer = &tokenizer["normalizer"];
    let expected = json!({
        "type": "BertNormalizer",
        "clean_text": true,
        "handle_chinese_chars": true,
        "strip_accents": null,
        "lowercase": true,
    });
    ensure!(
        *normalizer == expected,
        "the normalizer is {normalizer}, not {expected}"
    );
    let pre = &tokenizer["pre_tokenizer"]["type"];
    ensure!(pre == "BertPreTokenizer", "the pre-tokenizer is {pre}");
    let model = &tokenizer["model"];
    ensure!(model["type"] == "WordPiece", "the tokenizer is {}", model["type"]);
    ensure!(
        model["continuing_subword_prefix"] == "##",
        "the continuing-subword prefix is {}",
        model["continuing_subword_prefix"]
    );
    Ok(())
}

/// (rows, columns, first byte) of the int8 `embeddings` tensor.
fn embeddings_layout(path: &Path) -> Result<(usize, usize, usize)> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    let header_len = u64::from_le_bytes(bytes.get(..8).context("a safetensors header")?.try_into()?) as usize;
    let header: Value = serde_json::from_slice(bytes.get(8..8 + header_len).context("the header")?)?;
    // model2vec would apply per-token `weights` or a `mapping`; the pooling here does not.
    let tensors: Vec<&String> = header.as_object().context("the header")?.keys().collect();
    ensure!(
        tensors
            .iter()
            .all(|name| *name == "embeddings" || *name == "__metadata__"),
        "the static model holds {tensors:?}; only an `embeddings` table is implemented"
    );
    let tensor = &header["embeddings"];
    if tensor["dtype"] != "I8" {
        bail!("the static model's embeddings are {}, not I8", tensor["dtype"]);
    }
    let dim = |v: &Value| v.as_u64().map(|n| n as usize).context("a dimension");
    let shape = tensor["shape"].as_array().context("the embeddings' shape")?;
    ensure!(shape.len() == 2, "the embeddings are not a matrix");
    let (rows, cols) = (dim(&shape[0])?, dim(&shape[1])?);
    let offsets = tensor["data_offsets"].as_array().context("data_offsets")?;
    let (from, to) = (dim(&offsets[0])?, dim(&offsets[1])?);
    ensure!(
        to - from == rows * cols,
        "the embeddings' offsets do not match their shape"
    );
    let start = 8 + header_len + from;
    ensure!(
        start + rows * cols <= bytes.len(),
        "the embeddings run past the file's end"
    );
    Ok((rows, cols, start))
}

fn read_json(path: &Path) -> Result<Value> {
    let bytes = std::fs::read(path).with_context(|| format!("reading {}", path.display()))?;
    serde_json::from_slice(&bytes).with_context(|| format!("parsing {}", path.display()))
}

fn write(out: &Path, src: &str) -> Result<()> {
    std::fs::write(out, src).with_context(|| format!("writing {}", out.display()))
}
