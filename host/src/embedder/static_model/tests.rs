//! The static embedder against the library it replaced, model2vec-rs, whose vectors every
//! existing home stored.

use super::*;
use crate::embedder::cosine;
use crate::embedder::wordpiece::tests::corpus;

const TOKENIZER_JSON: &[u8] = include_bytes!("../../../model/tokenizer.json");
const CONFIG_JSON: &[u8] = include_bytes!("../../../model/config.json");

#[test]
fn vectors_are_model2vecs_bit_for_bit() {
    let reference = model2vec_rs::model::StaticModel::from_bytes(TOKENIZER_JSON, WEIGHTS, CONFIG_JSON, None).unwrap();
    let texts = corpus();
    let ours = StaticEmbedder::new().embed(&texts).unwrap();
    let theirs = reference.encode(&texts);
    for ((text, a), b) in texts.iter().zip(&ours).zip(&theirs) {
        let same = a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x.to_bits() == y.to_bits());
        assert!(same, "{text:?}: {a:?} vs {b:?}");
    }
}

#[test]
fn the_default_model_understands_meaning() {
    let e = StaticEmbedder::new();
    let v = e
        .embed(&[
            "What should I avoid eating?".into(),
            "I'm allergic to peanuts".into(),
            "My favorite color is blue".into(),
        ])
        .unwrap();
    assert!(v.iter().all(|x| x.len() == 256));
    let related = cosine(&v[0], &v[1]);
    let unrelated = cosine(&v[0], &v[2]);
    assert!(
        related > 0.25 && unrelated < 0.15 && related > 2.0 * unrelated,
        "{related} vs {unrelated}"
    );
}
