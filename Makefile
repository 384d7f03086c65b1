# Reproducible recipes. The README's two quick-start commands need none of this.
PY ?= python3
DATA ?= data
RUN ?= runs/default
MINUTES ?= 135
# The Tatoeba pairs: deu.txt from www.manythings.org/anki (deu-eng.zip), or the copy in ../shared/data.
TATOEBA ?= deu.txt
ABLATE_RUNS ?= runs/ablate
# bf16 autocast on CPUs that compute bf16 natively (AVX512-BF16/AMX): 1.3x faster here; `make CPU_AMP=` turns it off.
CPU_AMP ?= $(shell $(PY) -c "from model.training.device import cpu_has_native_bf16 as f; print('--cpu-amp' if f() else '')" 2>/dev/null)

.PHONY: data-tatoeba-zh zh-model-init zh-model zh-model-scratch zh-model-resume ship-zh-model model-card-zh
.PHONY: test data-ding data-tatoeba data-tatoeba-entities default-model default-model-finetune default-model-resume ship-default-model model-card ablations bench bundle bundle-check bundle-smoke

test:
	QT_QPA_PLATFORM=offscreen $(PY) -m pytest

# Ding English→German corpus: sentences ×2 (a quarter of the pairs), 40k phrase pairs, 60k synthetic everyday
# sentences; 1,000 valid and test sentences.
data-ding:
	$(PY) -m model.cli data ding --out $(DATA)/ding-ft-v1 --sentence-repeat 2 --max-phrases 40000 --augment 60000 --seed 1

# Tatoeba English→German pairs (1,000 valid and 1,000 test pairs held out, neither side in train) plus the
# Ding dictionary's example sentences twice (its own held-out sentences stay out).
data-tatoeba:
	$(PY) -m model.cli data tatoeba --tsv $(TATOEBA) --out $(DATA)/tatoeba-v1 --ding-sentences 2 --seed 1

# The built-in model (see assets/models/en-de/MODEL_CARD.md). Resumable: run default-model-resume
# as often as needed; each run stops cleanly after MINUTES and keeps its checkpoints.
default-model: data-tatoeba
	$(PY) -m model.cli train --src $(DATA)/tatoeba-v1/train.en --tgt $(DATA)/tatoeba-v1/train.de \
	  --valid-src $(DATA)/tatoeba-v1/valid.en --valid-tgt $(DATA)/tatoeba-v1/valid.de --out $(RUN) \
	  --preset small --dropout 0.1 --vocab-size 8000 --batch-tokens 6000 --warmup 1000 --lr-scale 0.7 \
	  --label-smoothing 0.1 --max-steps 60000 --max-minutes $(MINUTES) --valid-every 500 --checkpoint-every 250 \
	  --keep 10 --threads 2 $(CPU_AMP)

# Stage two (model v7): the averaged v6 weights (FROM: assets/models/en-de as of commit 06b9fd4, e.g. through
# `git worktree add /tmp/v6 06b9fd4`) trained on, on the same pairs plus 20,000 copies with other names and
# 5,000 with other numbers (model/corpus/entities.py). Continue it with default-model-resume RUN=….
FROM ?= assets/models/en-de
data-tatoeba-entities:
	$(PY) -m model.cli data tatoeba --tsv $(TATOEBA) --out $(DATA)/tatoeba-v2 --ding-sentences 2 --seed 1 \
	  --names 20000 --numbers 5000

default-model-finetune: data-tatoeba-entities
	$(PY) -m model.cli train --resume $(FROM) --src $(DATA)/tatoeba-v2/train.en --tgt $(DATA)/tatoeba-v2/train.de \
	  --valid-src $(DATA)/tatoeba-v2/valid.en --valid-tgt $(DATA)/tatoeba-v2/valid.de --out $(RUN) \
	  --max-steps 60000 --max-minutes $(MINUTES) --valid-every 500 --checkpoint-every 250 --keep 12 --threads 2 $(CPU_AMP)

default-model-resume:
	$(PY) -m model.cli train --resume $(RUN) --max-steps 60000 --max-minutes $(MINUTES) \
	  --valid-every 500 --checkpoint-every 250 --keep 10 --threads 2 $(CPU_AMP)

# Average the last checkpoints (paper, section 6.1) into the shipped folder, with the held-out Tatoeba test
# pairs. The card, samples and the Ding test (heldout/ding-test.*) in assets/models/en-de stay.
AVERAGE ?= 5
ship-default-model:
	$(PY) -m model.cli average $$(ls -d $(RUN)/step-* | tail -n $(AVERAGE)) --out $(RUN)/averaged --half
	cp $(RUN)/averaged/config.json $(RUN)/averaged/model.safetensors $(RUN)/averaged/spm.model assets/models/en-de/
	cp $(RUN)/$$(cat $(RUN)/LATEST)/train_config.json assets/models/en-de/
	cp $(DATA)/tatoeba-v1/test.en assets/models/en-de/heldout/test.en
	cp $(DATA)/tatoeba-v1/test.de assets/models/en-de/heldout/test.de

# The built-in English→Chinese model (assets/models/en-zh/MODEL_CARD.md): Tatoeba's cmn.txt pairs, the copy in
# ../shared/data by default. The same hold-out rule; the files are train/valid/test.{en,zh}.
TATOEBA_ZH ?= ../shared/data/tatoeba-cmn-eng-2022.tsv.xz
ZH_RUN ?= runs/en-zh
data-tatoeba-zh:
	$(PY) -m model.cli data tatoeba --tsv $(TATOEBA_ZH) --tgt-lang zh --out $(DATA)/zh-v1 --seed 1

# The shipped recipe: a child of the English→German model (model/training/transfer.py says why), with the
# joint vocabulary the from-scratch pilot learned (ZH_SPM; `make zh-model-scratch` trains it anew).
ZH_SPM ?= assets/models/en-zh/spm.model
zh-model-init:
	$(PY) -m model.training.transfer --parent assets/models/en-de --tokenizer $(ZH_SPM) --out $(ZH_RUN)-init \
	  --dropout 0.2

zh-model: data-tatoeba-zh zh-model-init
	$(PY) -m model.cli train --resume $(ZH_RUN)-init --src $(DATA)/zh-v1/train.en --tgt $(DATA)/zh-v1/train.zh \
	  --valid-src $(DATA)/zh-v1/valid.en --valid-tgt $(DATA)/zh-v1/valid.zh --out $(ZH_RUN) \
	  --batch-tokens 4000 --warmup 400 --lr-scale 0.5 --label-smoothing 0.1 --max-minutes $(MINUTES) \
	  --valid-every 250 --checkpoint-every 250 --keep 12 --threads 2 $(CPU_AMP)

# From scratch (the pilots and the first run: its cross-attention stayed uniform, valid BLEU about 10).
zh-model-scratch: data-tatoeba-zh
	$(PY) -m model.cli train --src $(DATA)/zh-v1/train.en --tgt $(DATA)/zh-v1/train.zh \
	  --valid-src $(DATA)/zh-v1/valid.en --valid-tgt $(DATA)/zh-v1/valid.zh --out $(ZH_RUN)-scratch \
	  --preset small --dropout 0.3 --vocab-size 4000 --batch-tokens 4000 --warmup 800 --lr-scale 0.7 \
	  --label-smoothing 0.1 --max-minutes $(MINUTES) --valid-every 500 --checkpoint-every 250 --keep 12 \
	  --threads 2 $(CPU_AMP)

zh-model-resume:
	$(PY) -m model.cli train --resume $(ZH_RUN) --max-minutes $(MINUTES) --threads 2 $(CPU_AMP)

ship-zh-model:
	$(PY) -m model.cli average $$(ls -d $(ZH_RUN)/step-* | tail -n $(AVERAGE)) --out $(ZH_RUN)/averaged --half
	mkdir -p assets/models/en-zh/heldout
	cp $(ZH_RUN)/averaged/config.json $(ZH_RUN)/averaged/model.safetensors $(ZH_RUN)/averaged/spm.model assets/models/en-zh/
	cp $(ZH_RUN)/$$(cat $(ZH_RUN)/LATEST)/train_config.json assets/models/en-zh/
	cp $(DATA)/zh-v1/test.en $(DATA)/zh-v1/test.zh assets/models/en-zh/heldout/

# The card's two hand-written paragraphs live beside the model, so regenerating it keeps them.
model-card-zh:
	$(PY) -m model.card --model assets/models/en-zh --run $(ZH_RUN) --progress \
	  --status-file assets/models/en-zh/card-status.md --history-file assets/models/en-zh/card-history.md

# The previous built-in model (git show 7c53c00:assets/models/en-de/…), scored on the same sentences.
BASELINE ?= runs/baseline-v4
# Measure the shipped model (held-out BLEU/chrF, averaging/beam/length-penalty comparisons, the forty
# sample sentences) and write assets/models/en-de/MODEL_CARD.md, floors.json and scores.json.
model-card:
	$(PY) -m model.card --model assets/models/en-de --run $(RUN) --agreement benchmarks/reference_agreement.json \
	  --baseline $(BASELINE) --baseline-label "previous built-in model (Ding, v4)" --progress

# Vocabulary size, label smoothing, shared embeddings: one change at a time on a smaller model of the
# same recipe (about 30 min per pair of variants on 2 cores; repeat the command to resume).
ablations: data-ding
	$(PY) -m benchmarks.ablations --data $(DATA)/ding-ft-v1 --runs $(ABLATE_RUNS) --json benchmarks/ablations.json

bench:
	QT_QPA_PLATFORM=offscreen $(PY) -m benchmarks --json benchmarks/latest.json

# The desktop bundle (packaging/README.md): one folder with its own Python, CPU torch, Qt and the built-in
# model, in packaging/dist/attention-explorer/. Build it where the CPU build of torch is installed (the
# README's quick start): a CUDA torch would make it several GB. It leaves out the library modules listed in
# packaging/bundle-excludes.txt, measured for one torch version: after an upgrade, rerun
# packaging/find_excludes.py. Minutes of CPU (an hour on a busy 2-core machine), so at low priority.
BUNDLE = packaging/dist/attention-explorer
bundle:
	$(PY) -c "import sys, torch; v = torch.__version__; f = 'packaging/bundle-excludes.txt'; \
	  torch.version.cuda and sys.exit('make bundle wants the CPU build of torch, not CUDA ' + torch.version.cuda); \
	  f'torch {v},' in open(f).readline() or sys.exit(f'{f} was measured for another torch than {v}: run $(PY) packaging/find_excludes.py')"
	$(PY) -m pip install -q "pyinstaller==6.22.3"
	nice -n 10 $(PY) -m PyInstaller --noconfirm --clean --log-level WARN --distpath packaging/dist \
	  --workpath packaging/build packaging/attention-explorer.spec
	du -sh $(BUNDLE)

# Build the bundle, then run it from outside the source tree: translate, a --screenshot whose PNG is checked,
# a few training steps. `make bundle-smoke` runs the same checks on the bundle already built.
bundle-check: bundle bundle-smoke

bundle-smoke:
	ATTENTION_EXPLORER_BUNDLE=$(BUNDLE) QT_QPA_PLATFORM=offscreen $(PY) -m pytest -p no:cacheprovider -m slow tests/test_bundle.py
