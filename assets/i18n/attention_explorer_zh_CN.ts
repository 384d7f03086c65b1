<?xml version="1.0" encoding="utf-8"?>
<!DOCTYPE TS>
<TS version="2.1" language="zh_CN" sourcelanguage="en">
  <context>
    <name>AttentionExplorer</name>
    <message>
      <source>{heads} — right-click a tile in All heads to restore one</source>
      <translation>{heads} — 在“全部头”中右键点击一个图块即可恢复</translation>
    </message>
    <message>
      <source>{n} heads removed</source>
      <translation>已移除 {n} 个头</translation>
    </message>
    <message>
      <source>1 head removed</source>
      <translation>已移除 1 个头</translation>
    </message>
    <message>
      <source>Same output: removing these heads changed no word.</source>
      <translation>输出相同：移除这些头没有改变任何词。</translation>
    </message>
    <message>
      <source>{changed} of {n} words differ (marked)</source>
      <translation>{n} 个词中有 {changed} 个不同（已标出）</translation>
    </message>
    <message>
      <source>Beam size 1 is greedy decoding: one hypothesis, no beam to list. Choose a beam size of 2 or more.</source>
      <translation>束宽为 1 就是贪心解码：只有一个假设，没有束可列出。请选择 2 或更大的束宽。</translation>
    </message>
    <message>
      <source>Translate a sentence to list its beam.</source>
      <translation>翻译一个句子即可列出它的束。</translation>
    </message>
    <message>
      <source>Final beam of size {size}: {n} hypotheses, best first. score = log P / lp, lp = ((5 + |Y|) / 6)^{alpha:g} (GNMT). Select one to see its maps.</source>
      <translation>束宽 {size} 的最终束：{n} 个假设，最好的在前。得分 = log P / lp，lp = ((5 + |Y|) / 6)^{alpha:g}（GNMT）。选择一个即可查看它的注意力图。</translation>
    </message>
    <message>
      <source>loaded in {time}</source>
      <translation>加载用时 {time}</translation>
    </message>
    <message>
      <source>translated in {time}</source>
      <translation>翻译用时 {time}</translation>
    </message>
    <message>
      <source>{run} (step {step:,})</source>
      <translation>{run}（第 {step:,} 步）</translation>
    </message>
    <message>
      <source>Trained with Attention Explorer</source>
      <translation>用 Attention Explorer 训练</translation>
    </message>
    <message>
      <source>Hugging Face Marian (OPUS-MT) folder</source>
      <translation>Hugging Face Marian（OPUS-MT）模型文件夹</translation>
    </message>
    <message>
      <source>Imported from a Marian (OPUS-MT) model</source>
      <translation>从 Marian（OPUS-MT）模型导入</translation>
    </message>
    <message>
      <source>d_model {d_model}{d_ff} · {n} + {n} layers · {h} heads</source>
      <translation>d_model {d_model}{d_ff} · {n} + {n} 层 · {h} 个头</translation>
    </message>
    <message>
      <source>{n:,} pieces</source>
      <translation>{n:,} 个子词</translation>
    </message>
    <message>
      <source>No model loaded</source>
      <translation>未加载模型</translation>
    </message>
    <message>
      <source>{n:,} parameters</source>
      <translation>{n:,} 个参数</translation>
    </message>
    <message>
      <source>Slide {i} of {n}{title}   (PageDown next, PageUp back, Esc ends the lesson)</source>
      <translation>第 {i} / {n} 页{title}   （PageDown 下一页，PageUp 上一页，Esc 结束本课）</translation>
    </message>
    <message>
      <source>Lesson {name}: slide {i} of {n}</source>
      <translation>课程 {name}：第 {i} / {n} 页</translation>
    </message>
    <message>
      <source>Loading…</source>
      <translation>正在加载…</translation>
    </message>
    <message>
      <source>Loading the built-in model…</source>
      <translation>正在加载内置模型…</translation>
    </message>
    <message>
      <source>Loading {path}…</source>
      <translation>正在加载 {path}…</translation>
    </message>
    <message>
      <source>Open model folder</source>
      <translation>打开模型文件夹</translation>
    </message>
    <message>
      <source>Device: {device}</source>
      <translation>设备：{device}</translation>
    </message>
    <message>
      <source>Attention Explorer — {name}</source>
      <translation>Attention Explorer — {name}</translation>
    </message>
    <message>
      <source>Loaded {name}</source>
      <translation>已加载 {name}</translation>
    </message>
    <message>
      <source>Ready</source>
      <translation>就绪</translation>
    </message>
    <message>
      <source>Error</source>
      <translation>错误</translation>
    </message>
    <message>
      <source>Loading the model…</source>
      <translation>正在加载模型…</translation>
    </message>
    <message>
      <source>Train a model</source>
      <translation>训练模型</translation>
    </message>
    <message>
      <source>Train a model from the command line:

    attention-explorer train --help

then open the folder it writes with File › Open model folder…</source>
      <translation>请在命令行中训练模型：

    attention-explorer train --help

然后用“文件 › 打开模型文件夹…”打开它写出的文件夹。</translation>
    </message>
    <message>
      <source>Could not open the model</source>
      <translation>无法打开模型</translation>
    </message>
    <message>
      <source>Working…</source>
      <translation>正在处理…</translation>
    </message>
    <message>
      <source>Training is running</source>
      <translation>训练正在进行</translation>
    </message>
    <message>
      <source>Stop the training run and quit? The run saves a checkpoint before it stops.</source>
      <translation>停止训练并退出？训练在停止前会保存一个检查点。</translation>
    </message>
    <message>
      <source>Step {step}  ({i} of {n}):  {source}  →  {text}</source>
      <translation>第 {step} 步（第 {i} 个，共 {n} 个）：  {source}  →  {text}</translation>
    </message>
    <message>
      <source>No probe yet</source>
      <translation>尚无探针快照</translation>
    </message>
    <message>
      <source>(nothing)</source>
      <translation>（空）</translation>
    </message>
    <message>
      <source>Source-language file</source>
      <translation>源语言文件</translation>
    </message>
    <message>
      <source>Target-language file</source>
      <translation>目标语言文件</translation>
    </message>
    <message>
      <source>Tab-separated file</source>
      <translation>制表符分隔文件</translation>
    </message>
    <message>
      <source>Output folder</source>
      <translation>输出文件夹</translation>
    </message>
    <message>
      <source>Resume from checkpoint</source>
      <translation>从检查点继续</translation>
    </message>
    <message>
      <source>Preparing the data…</source>
      <translation>正在准备数据…</translation>
    </message>
    <message>
      <source>Training</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Paused</source>
      <translation>已暂停</translation>
    </message>
    <message>
      <source>Stopping — saving a checkpoint…</source>
      <translation>正在停止 — 保存检查点…</translation>
    </message>
    <message>
      <source>Opening {path} in the explorer</source>
      <translation>正在注意力视图中打开 {path}</translation>
    </message>
    <message>
      <source>Paused at step {step}</source>
      <translation>暂停于第 {step} 步</translation>
    </message>
    <message>
      <source>Starting a run in {out}, resuming {run}</source>
      <translation>在 {out} 开始训练，继续 {run}</translation>
    </message>
    <message>
      <source>Starting a run in {out}</source>
      <translation>在 {out} 开始训练</translation>
    </message>
    <message>
      <source>Reading the corpus…</source>
      <translation>正在读取语料…</translation>
    </message>
    <message>
      <source>Reading the corpus and training the tokenizer…</source>
      <translation>正在读取语料并训练分词器…</translation>
    </message>
    <message>
      <source>Resume</source>
      <translation>继续</translation>
    </message>
    <message>
      <source>Pause</source>
      <translation>暂停</translation>
    </message>
    <message>
      <source>Step {step}: valid loss {loss:.3f}{bleu}</source>
      <translation>第 {step} 步：验证损失 {loss:.3f}{bleu}</translation>
    </message>
    <message>
      <source>Step {step}: {what}</source>
      <translation>第 {step} 步：{what}</translation>
    </message>
    <message>
      <source>Failed</source>
      <translation>失败</translation>
    </message>
    <message>
      <source>Finished at step {step}</source>
      <translation>完成于第 {step} 步</translation>
    </message>
    <message>
      <source>Stopped at step {step}</source>
      <translation>停止于第 {step} 步</translation>
    </message>
    <message>
      <source>Error: {message}</source>
      <translation>错误：{message}</translation>
    </message>
    <message>
      <source>Resumed</source>
      <translation>已继续</translation>
    </message>
    <message>
      <source>No checkpoint has been written yet; wait for one or stop the run.</source>
      <translation>还没有写入检查点；请等待写入或停止训练。</translation>
    </message>
    <message>
      <source>Building the Ding corpus in {folder} (this takes a minute)…</source>
      <translation>正在 {folder} 中构建 Ding 语料（需要约一分钟）…</translation>
    </message>
    <message>
      <source>Could not list the GPUs: {error}</source>
      <translation>无法列出 GPU：{error}</translation>
    </message>
    <message>
      <source>The GPU ran out of memory. Try fewer batch tokens or a smaller model; the last checkpoint written (if any) is intact.</source>
      <translation>GPU 显存不足。请减少每批词元数或换用更小的模型；已写入的最后一个检查点（如有）完好无损。</translation>
    </message>
    <message>
      <source>{corpus}; {data}</source>
      <translation>{corpus}；{data}</translation>
    </message>
    <message>
      <source>task {task}: {n} generated pairs</source>
      <translation>任务 {task}：生成了 {n} 个句对</translation>
    </message>
    <message>
      <source>{n} pairs from {source}</source>
      <translation>从 {source} 读取了 {n} 个句对</translation>
    </message>
    <message>
      <source>; skipped {n} (line {lines})</source>
      <translation>；跳过 {n} 行（行号 {lines}）</translation>
    </message>
    <message>
      <source>empty source</source>
      <translation>源句为空</translation>
    </message>
    <message>
      <source>empty target</source>
      <translation>目标句为空</translation>
    </message>
    <message>
      <source>longer than {n} characters</source>
      <translation>超过 {n} 个字符</translation>
    </message>
    <message>
      <source>expected 2 tab-separated columns, found {n}</source>
      <translation>应有 2 列（以制表符分隔），实有 {n} 列</translation>
    </message>
    <message>
      <source>… {n} more</source>
      <translation>… 另有 {n} 行</translation>
    </message>
    <message>
      <source>{n} training pairs ({long} too long skipped), {valid} validation pairs, vocabulary {vocab}</source>
      <translation>{n} 个训练句对（跳过 {long} 个过长的），{valid} 个验证句对，词表 {vocab}</translation>
    </message>
    <message>
      <source>saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>stopped before the first step; nothing was written</source>
      <translation>在第一步之前就停止了；没有写入任何内容</translation>
    </message>
    <message>
      <source>Checkpoint</source>
      <translation>检查点</translation>
    </message>
    <message>
      <source>Finished; saved</source>
      <translation>已完成；已保存</translation>
    </message>
    <message>
      <source>Stopped; saved</source>
      <translation>已停止；已保存</translation>
    </message>
    <message>
      <source>the same words as another row, split into other pieces: beam search keeps both</source>
      <translation>与另一行的词相同，只是切分成了不同的子词：束搜索两者都保留</translation>
    </message>
    <message>
      <source>{k} of {n} characters {verb} unknown to this model (its vocabulary never saw them), so the translation may be wrong</source>
      <translation>{n} 个字符中有 {k} 个是这个模型不认识的（其词表中从未出现过），因此译文可能有误</translation>
    </message>
    <message>
      <source>{n_in} → {n_out} pieces · score {score:.2f}</source>
      <translation>{n_in} → {n_out} 个子词 · 得分 {score:.2f}</translation>
    </message>
    <message>
      <source>{n_in} → {n_out} pieces</source>
      <translation>{n_in} → {n_out} 个子词</translation>
    </message>
    <message>
      <source>Translating…</source>
      <translation>正在翻译…</translation>
    </message>
    <message>
      <source>Translate</source>
      <translation>翻译</translation>
    </message>
    <message>
      <source>Pharaoh (source-target): {links}</source>
      <translation>Pharaoh 格式（源-目标）：{links}</translation>
    </message>
    <message>
      <source>{kind} — layer {layer}, {which}</source>
      <translation>{kind} — 第 {layer} 层，{which}</translation>
    </message>
    <message>
      <source>Layer {layer}, {which}:</source>
      <translation>第 {layer} 层，{which}：</translation>
    </message>
    <message>
      <source>Attention</source>
      <translation>注意力</translation>
    </message>
    <message>
      <source>mean of {n} heads</source>
      <translation>{n} 个头的平均</translation>
    </message>
    <message>
      <source>head {h}</source>
      <translation>第 {h} 头</translation>
    </message>
    <message>
      <source>{title} — REMOVED (ablated)</source>
      <translation>{title} — 已移除（消融）</translation>
    </message>
    <message>
      <source>{kind}: layer {layer} {which} outlined</source>
      <translation>{kind}：框出第 {layer} 层{which}</translation>
    </message>
    <message>
      <source>removed (ablated)</source>
      <translation>已移除（消融）</translation>
    </message>
    <message>
      <source>all {n} heads</source>
      <translation>全部 {n} 个头</translation>
    </message>
    <message>
      <source>no heads</source>
      <translation>未选任何头</translation>
    </message>
    <message>
      <source>heads {list}</source>
      <translation>第 {list} 头</translation>
    </message>
    <message>
      <source>{kind} — layer {layer}, {which}.   A: {a}   B: {b} ({note}).   B's own translation: {text}</source>
      <translation>{kind} — 第 {layer} 层，{which}。   A：{a}   B：{b}（{note}）。   B 自己的译文：{text}</translation>
    </message>
    <message>
      <source>A: {a}   B: {b}
{note}
B translates it: {text}</source>
      <translation>A：{a}   B：{b}
{note}
B 的译文：{text}</translation>
    </message>
    <message>
      <source>, … ({n} in all)</source>
      <translation>，…（共 {n} 个）</translation>
    </message>
    <message>
      <source>{kind}, layer {layer}, head {head}: query {i} “{query}”, key {j} “{key}”; d_k = {d_k}, √d_k = {scale:.3f}.</source>
      <translation>{kind}，第 {layer} 层，第 {head} 头：查询 {i}“{query}”，键 {j}“{key}”；d_k = {d_k}，√d_k = {scale:.3f}。</translation>
    </message>
    <message>
      <source>Worked example: q = [1, 2], keys [1, 0], [0, 1], [1, 1], values [10, 0], [0, 20], [10, 10]. k below is the third key.</source>
      <translation>手算示例：q = [1, 2]，键 [1, 0]、[0, 1]、[1, 1]，值 [10, 0]、[0, 20]、[10, 10]。下面的 k 是第三个键。</translation>
    </message>
    <message>
      <source>Translate a sentence first.</source>
      <translation>请先翻译一个句子。</translation>
    </message>
    <message>
      <source>Translate again with this panel open: its q, k and v are captured only then.</source>
      <translation>请在此面板打开时重新翻译：只有这时才会记录 q、k 和 v。</translation>
    </message>
    <message>
      <source>Click a cell of the heatmap.</source>
      <translation>请点击热力图中的一个格子。</translation>
    </message>
    <message>
      <source>largest weight {max_s:.2f} → {max_u:.2f} without ÷√d_k;  entropy {ent_s:.2f} → {ent_u:.2f} bits</source>
      <translation>最大权重 {max_s:.2f} → 不除以 √d_k 时 {max_u:.2f}；  熵 {ent_s:.2f} → {ent_u:.2f} 比特</translation>
    </message>
    <message>
      <source>a = softmax(q Kᵀ)  (no ÷√d_k)</source>
      <translation>a = softmax(q Kᵀ)  （不除以 √d_k）</translation>
    </message>
    <message>
      <source>Layer {layer}, head {head} — max weight {peak:.3f} (click to open, right-click to remove)</source>
      <translation>第 {layer} 层，第 {head} 头 — 最大权重 {peak:.3f}（点击打开，右键移除）</translation>
    </message>
    <message>
      <source>Click a head to open it</source>
      <translation>点击一个头即可打开</translation>
    </message>
    <message>
      <source>Layer {layer}, head {head} — removed (right-click to restore)</source>
      <translation>第 {layer} 层，第 {head} 头 — 已移除（右键恢复）</translation>
    </message>
    <message>
      <source>entropy {bits:.2f} bits (uniform {uniform:.2f})</source>
      <translation>熵 {bits:.2f} 比特（均匀分布 {uniform:.2f}）</translation>
    </message>
    <message>
      <source>mean max weight {w:.3f}</source>
      <translation>平均最大权重 {w:.3f}</translation>
    </message>
    <message>
      <source>mean |i−j| {d:.2f}</source>
      <translation>平均 |i−j| {d:.2f}</translation>
    </message>
    <message>
      <source>diagonal {p:.0f}%</source>
      <translation>对角线 {p:.0f}%</translation>
    </message>
    <message>
      <source>previous token {p:.0f}%</source>
      <translation>前一个词元 {p:.0f}%</translation>
    </message>
    <message>
      <source>on &lt;/s&gt; {p:.0f}%</source>
      <translation>落在 &lt;/s&gt; 上 {p:.0f}%</translation>
    </message>
    <message>
      <source>row</source>
      <translation>行</translation>
    </message>
    <message>
      <source>{row_noun} '{row_piece}' (row {row}) → {col_noun} '{col_piece}' (col {col}): </source>
      <translation>{row_noun}“{row_piece}”（第 {row} 行）→ {col_noun}“{col_piece}”（第 {col} 列）：</translation>
    </message>
    <message>
      <source>attention weight</source>
      <translation>注意力权重</translation>
    </message>
    <message>
      <source>weight</source>
      <translation>权重</translation>
    </message>
    <message>
      <source>masked (future position)</source>
      <translation>已掩码（未来位置）</translation>
    </message>
    <message>
      <source>Full model: BLEU {bleu:.1f}, chrF {chrf:.1f} on {n} sentences{cached}. Cells: BLEU lost without the head; most important: {head}, {drop:.1f} lost.</source>
      <translation>完整模型：{n} 个句子上 BLEU {bleu:.1f}，chrF {chrf:.1f}{cached}。格子：去掉该头后损失的 BLEU；最重要的是 {head}，损失 {drop:.1f}。</translation>
    </message>
    <message>
      <source>{kind} L{layer} H{head}</source>
      <translation>{kind} 第 {layer} 层第 {head} 头</translation>
    </message>
    <message>
      <source>BLEU lost</source>
      <translation>BLEU 损失</translation>
    </message>
    <message>
      <source> (from the cache)</source>
      <translation>（来自缓存）</translation>
    </message>
    <message>
      <source>Show or hide head {h}</source>
      <translation>显示或隐藏第 {h} 头</translation>
    </message>
    <message>
      <source>PNG image (*.png)</source>
      <translation>PNG 图像 (*.png)</translation>
    </message>
    <message>
      <source>SVG image (*.svg)</source>
      <translation>SVG 图像 (*.svg)</translation>
    </message>
    <message>
      <source>CSV table (*.csv)</source>
      <translation>CSV 表格 (*.csv)</translation>
    </message>
    <message>
      <source>NumPy archive (*.npz)</source>
      <translation>NumPy 存档 (*.npz)</translation>
    </message>
    <message>
      <source>Export attention</source>
      <translation>导出注意力</translation>
    </message>
    <message>
      <source>Export failed</source>
      <translation>导出失败</translation>
    </message>
    <message>
      <source>dims</source>
      <translation>维度</translation>
    </message>
    <message>
      <source>dims {s}, {c}&lt;br&gt;one turn: {turn} pos.</source>
      <translation>维度 {s}, {c}&lt;br&gt;转一圈：{turn} 个位置</translation>
    </message>
    <message>
      <source>Position {pos} is beyond the longest training sentence ({n} pieces): the model never saw it.</source>
      <translation>位置 {pos} 超出了最长的训练句子（{n} 个词元）：模型从未见过它。</translation>
    </message>
    <message>
      <source>Position {pos}.</source>
      <translation>位置 {pos}。</translation>
    </message>
    <message>
      <source>{where} Solid hand: PE({pos}); dashed: PE({pos} + {k}) = PE({end}).</source>
      <translation>{where} 实线指针：PE({pos})；虚线：PE({pos} + {k}) = PE({end})。</translation>
    </message>
    <message>
      <source>How far each hand turns from PE(pos) to PE(pos + {k}), measured on the table, for several pos: the same in every column, so one rotation takes every PE(pos) to PE(pos + {k}).</source>
      <translation>每根指针从 PE(pos) 到 PE(pos + {k}) 转过的角度（在编码表上测得，取若干个 pos）：每一列都相同，所以同一个旋转把每个 PE(pos) 变成 PE(pos + {k})。</translation>
    </message>
    <message>
      <source>Positional encoding PE[pos, i]</source>
      <translation>位置编码 PE[pos, i]</translation>
    </message>
    <message>
      <source>Positional encoding PE[pos, i]: sines, then cosines (Marian)</source>
      <translation>位置编码 PE[pos, i]：先正弦，后余弦（Marian）</translation>
    </message>
    <message>
      <source>dim {dim} ({kind}, λ≈{wavelength:.3g})</source>
      <translation>维度 {dim}（{kind}，λ≈{wavelength:.3g}）</translation>
    </message>
    <message>
      <source>dimension i</source>
      <translation>维度 i</translation>
    </message>
    <message>
      <source>position</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>Similarity PE·PEᵀ</source>
      <translation>相似度 PE·PEᵀ</translation>
    </message>
    <message>
      <source>Chosen dimensions over position</source>
      <translation>所选维度随位置的变化</translation>
    </message>
    <message>
      <source>PE value</source>
      <translation>PE 值</translation>
    </message>
    <message>
      <source>Means over {n} sentences (the model's greedy translations).</source>
      <translation>{n} 个句子上的平均值（模型的贪心译文）。</translation>
    </message>
    <message>
      <source>all others</source>
      <translation>其余全部</translation>
    </message>
    <message>
      <source>No step to show</source>
      <translation>没有可显示的步骤</translation>
    </message>
    <message>
      <source>Decoder masked self-attention</source>
      <translation>解码器掩码自注意力</translation>
    </message>
    <message>
      <source>Query (decoder input)</source>
      <translation>查询（解码器输入）</translation>
    </message>
    <message>
      <source>Key (decoder input)</source>
      <translation>键（解码器输入）</translation>
    </message>
    <message>
      <source>Cross-attention over the source</source>
      <translation>对源语言的交叉注意力</translation>
    </message>
    <message>
      <source>Masked self-attention</source>
      <translation>掩码自注意力</translation>
    </message>
    <message>
      <source>Cross-attention</source>
      <translation>交叉注意力</translation>
    </message>
    <message>
      <source>Key (source)</source>
      <translation>键（源语言）</translation>
    </message>
    <message>
      <source>❚❚ Pause</source>
      <translation>❚❚ 暂停</translation>
    </message>
    <message>
      <source>▶ Play</source>
      <translation>▶ 播放</translation>
    </message>
    <message>
      <source>Step {t} of {n}</source>
      <translation>第 {t} 步，共 {n} 步</translation>
    </message>
    <message>
      <source>greedy: the largest wins</source>
      <translation>贪心：取概率最大者</translation>
    </message>
    <message>
      <source>beam {k}</source>
      <translation>束宽 {k}</translation>
    </message>
    <message>
      <source>Step {t}: softmax of the logits ({search})</source>
      <translation>第 {t} 步：logits 的 softmax（{search}）</translation>
    </message>
    <message>
      <source>So far: </source>
      <translation>目前：</translation>
    </message>
    <message>
      <source>Greedy keeps one hypothesis (score: sum of log-probabilities)</source>
      <translation>贪心解码只保留一个假设（得分：对数概率之和）</translation>
    </message>
    <message>
      <source>Beam {k} after step {t} (✓ ended: ÷ length penalty)</source>
      <translation>第 {t} 步后的束宽 {k}（✓ 已结束：÷ 长度惩罚）</translation>
    </message>
    <message>
      <source>The search ran {n} steps: it ends when {k} hypotheses have ended</source>
      <translation>搜索共进行了 {n} 步：当 {k} 个假设都结束时停止</translation>
    </message>
    <message>
      <source>Mean</source>
      <translation>平均</translation>
    </message>
    <message>
      <source>Export view</source>
      <translation>导出视图</translation>
    </message>
    <message>
      <source>PNG image (*.png);;SVG image (*.svg)</source>
      <translation>PNG 图像 (*.png);;SVG 图像 (*.svg)</translation>
    </message>
    <message>
      <source>NumPy archive (*.npz);;CSV of the shown matrix (*.csv)</source>
      <translation>NumPy 存档 (*.npz);;当前矩阵的 CSV (*.csv)</translation>
    </message>
    <message>
      <source>Export head importance</source>
      <translation>导出头的重要性</translation>
    </message>
    <message>
      <source>Export head statistics</source>
      <translation>导出头的统计</translation>
    </message>
    <message>
      <source>Export alignment</source>
      <translation>导出对齐</translation>
    </message>
    <message>
      <source>Saved {path}</source>
      <translation>已保存 {path}</translation>
    </message>
    <message>
      <source>Copied the translation ({n} characters)</source>
      <translation>已复制译文（{n} 个字符）</translation>
    </message>
    <message>
      <source>Could not write {path}:
{error}</source>
      <translation>无法写入 {path}：
{error}</translation>
    </message>
    <message>
      <source>Clear list</source>
      <translation>清空列表</translation>
    </message>
    <message>
      <source>(none)</source>
      <translation>（无）</translation>
    </message>
    <message>
      <source>type a sentence to translate: the text is empty</source>
      <translation>请输入要翻译的句子：文本为空</translation>
    </message>
    <message>
      <source>the sentence holds nothing the tokenizer can read</source>
      <translation>句子中没有分词器能读取的内容</translation>
    </message>
    <message>
      <source>CPU, bf16 math (faster)</source>
      <translation>CPU，bf16 运算（更快）</translation>
    </message>
    <message>
      <source>Type a sentence, then press Enter</source>
      <translation>输入一个句子，然后按 Enter</translation>
    </message>
    <message>
      <source>Step by step</source>
      <translation>逐步解码</translation>
    </message>
    <message>
      <source>Positional encoding</source>
      <translation>位置编码</translation>
    </message>
    <message>
      <source>Train</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Workbench</source>
      <translation>研究工作台</translation>
    </message>
    <message>
      <source>Previous step (←)</source>
      <translation>上一步（←）</translation>
    </message>
    <message>
      <source>◀ Back</source>
      <translation>◀ 后退</translation>
    </message>
    <message>
      <source>Play or pause (Space)</source>
      <translation>播放或暂停（空格）</translation>
    </message>
    <message>
      <source>Next step (→)</source>
      <translation>下一步（→）</translation>
    </message>
    <message>
      <source>Next ▶</source>
      <translation>前进 ▶</translation>
    </message>
    <message>
      <source>Speed</source>
      <translation>速度</translation>
    </message>
    <message>
      <source>Seconds per step while playing</source>
      <translation>播放时每一步的秒数</translation>
    </message>
    <message>
      <source>0.5 s</source>
      <translation>0.5 秒</translation>
    </message>
    <message>
      <source>1 s</source>
      <translation>1 秒</translation>
    </message>
    <message>
      <source>1.5 s</source>
      <translation>1.5 秒</translation>
    </message>
    <message>
      <source>2 s</source>
      <translation>2 秒</translation>
    </message>
    <message>
      <source>3 s</source>
      <translation>3 秒</translation>
    </message>
    <message>
      <source>Layer</source>
      <translation>层</translation>
    </message>
    <message>
      <source>Head</source>
      <translation>头</translation>
    </message>
    <message>
      <source>Next piece: softmax of the logits</source>
      <translation>下一个子词：logits 的 softmax</translation>
    </message>
    <message>
      <source>Hypotheses</source>
      <translation>假设</translation>
    </message>
    <message>
      <source>Hypothesis</source>
      <translation>假设</translation>
    </message>
    <message>
      <source>Score</source>
      <translation>得分</translation>
    </message>
    <message>
      <source>Query</source>
      <translation>查询</translation>
    </message>
    <message>
      <source>Key</source>
      <translation>键</translation>
    </message>
    <message>
      <source>Head importance</source>
      <translation>头的重要性</translation>
    </message>
    <message>
      <source>Statistics</source>
      <translation>统计</translation>
    </message>
    <message>
      <source>Alignment</source>
      <translation>对齐</translation>
    </message>
    <message>
      <source>Layer:</source>
      <translation>层：</translation>
    </message>
    <message>
      <source>Head:</source>
      <translation>头：</translation>
    </message>
    <message>
      <source>Link each target word through the decoding step that reads it as input (the next step), not the step that produced it</source>
      <translation>通过把目标词作为输入读入的解码步（下一步）来连接它，而不是通过生成它的那一步</translation>
    </message>
    <message>
      <source>Shifted (Chen et al. 2020)</source>
      <translation>移位（Chen 等，2020）</translation>
    </message>
    <message>
      <source>Export Pharaoh…</source>
      <translation>导出 Pharaoh…</translation>
    </message>
    <message>
      <source>Translate a sentence to see its word alignment.</source>
      <translation>翻译一个句子即可查看其词对齐。</translation>
    </message>
    <message>
      <source>Sentences:</source>
      <translation>句子数：</translation>
    </message>
    <message>
      <source>How many sentences of the test set to use (0: all)</source>
      <translation>使用测试集中的多少个句子（0：全部）</translation>
    </message>
    <message>
      <source>all</source>
      <translation>全部</translation>
    </message>
    <message>
      <source>the model's held-out set</source>
      <translation>模型自带的留出集</translation>
    </message>
    <message>
      <source>Pick a source file, one sentence a line</source>
      <translation>选择源语言文件，每行一句</translation>
    </message>
    <message>
      <source>Files…</source>
      <translation>文件…</translation>
    </message>
    <message>
      <source>Use the sentences the model folder ships in heldout/</source>
      <translation>使用模型文件夹 heldout/ 中自带的句子</translation>
    </message>
    <message>
      <source>Held-out</source>
      <translation>留出集</translation>
    </message>
    <message>
      <source>Run</source>
      <translation>运行</translation>
    </message>
    <message>
      <source>Cancel</source>
      <translation>取消</translation>
    </message>
    <message>
      <source>Run to translate the test set and average each head's statistics.</source>
      <translation>点击“运行”翻译测试集，并对每个头的统计量求平均。</translation>
    </message>
    <message>
      <source>Grid:</source>
      <translation>网格：</translation>
    </message>
    <message>
      <source>entropy</source>
      <translation>熵</translation>
    </message>
    <message>
      <source>confidence</source>
      <translation>置信度</translation>
    </message>
    <message>
      <source>distance</source>
      <translation>距离</translation>
    </message>
    <message>
      <source>previous</source>
      <translation>前一个</translation>
    </message>
    <message>
      <source>same</source>
      <translation>同一个</translation>
    </message>
    <message>
      <source>next</source>
      <translation>后一个</translation>
    </message>
    <message>
      <source>eos</source>
      <translation>句末 &lt;/s&gt;</translation>
    </message>
    <message>
      <source>punctuation</source>
      <translation>标点</translation>
    </message>
    <message>
      <source>Export CSV…</source>
      <translation>导出 CSV…</translation>
    </message>
    <message>
      <source>kind</source>
      <translation>类型</translation>
    </message>
    <message>
      <source>layer</source>
      <translation>层</translation>
    </message>
    <message>
      <source>head</source>
      <translation>头</translation>
    </message>
    <message>
      <source>Pick a source file and its reference translations, one sentence a line</source>
      <translation>选择源语言文件及其参考译文，每行一句</translation>
    </message>
    <message>
      <source>Run to score every head: each is removed alone and the test set translated again (greedy).</source>
      <translation>点击“运行”为每个头打分：每次单独移除一个头，再重新翻译测试集（贪心解码）。</translation>
    </message>
    <message>
      <source>Export…</source>
      <translation>导出…</translation>
    </message>
    <message>
      <source>BLEU</source>
      <translation>BLEU</translation>
    </message>
    <message>
      <source>heads removed (least important first)</source>
      <translation>移除的头数（从最不重要的开始）</translation>
    </message>
    <message>
      <source>Probe replay</source>
      <translation>探针回放</translation>
    </message>
    <message>
      <source>Scrub back through the probe snapshots to replay how the heads formed</source>
      <translation>拖动浏览探针快照，回放各个头是如何形成的</translation>
    </message>
    <message>
      <source>Encoder self-attention (PageUp/PageDown)</source>
      <translation>编码器自注意力（PageUp/PageDown）</translation>
    </message>
    <message>
      <source>Decoder masked self-attention (PageUp/PageDown)</source>
      <translation>解码器掩码自注意力（PageUp/PageDown）</translation>
    </message>
    <message>
      <source>Encoder–decoder cross-attention (PageUp/PageDown)</source>
      <translation>编码器–解码器交叉注意力（PageUp/PageDown）</translation>
    </message>
    <message>
      <source>Layer (Up/Down)</source>
      <translation>层（↑/↓）</translation>
    </message>
    <message>
      <source>Head (Left/Right)</source>
      <translation>头（←/→）</translation>
    </message>
    <message>
      <source>Average the heads of the layer (M)</source>
      <translation>对该层所有头取平均（M）</translation>
    </message>
    <message>
      <source>All heads</source>
      <translation>全部头</translation>
    </message>
    <message>
      <source>Lines</source>
      <translation>连线</translation>
    </message>
    <message>
      <source>Heads:</source>
      <translation>头：</translation>
    </message>
    <message>
      <source>All</source>
      <translation>全选</translation>
    </message>
    <message>
      <source>None</source>
      <translation>全不选</translation>
    </message>
    <message>
      <source>Colours</source>
      <translation>配色</translation>
    </message>
    <message>
      <source>Export</source>
      <translation>导出</translation>
    </message>
    <message>
      <source>The probe sentence's attention appears here as the model trains</source>
      <translation>模型训练时，探针句子的注意力会显示在这里</translation>
    </message>
    <message>
      <source>Step</source>
      <translation>步数</translation>
    </message>
    <message>
      <source>Train loss</source>
      <translation>训练损失</translation>
    </message>
    <message>
      <source>Valid loss</source>
      <translation>验证损失</translation>
    </message>
    <message>
      <source>Valid BLEU</source>
      <translation>验证 BLEU</translation>
    </message>
    <message>
      <source>Tokens/s</source>
      <translation>词元/秒</translation>
    </message>
    <message>
      <source>Elapsed</source>
      <translation>已用时间</translation>
    </message>
    <message>
      <source>ETA</source>
      <translation>预计剩余</translation>
    </message>
    <message>
      <source>ETA …</source>
      <translation>预计剩余 …</translation>
    </message>
    <message>
      <source>ETA {m} min {s:02d} s</source>
      <translation>预计剩余 {m} 分 {s:02d} 秒</translation>
    </message>
    <message>
      <source>ETA {s} s</source>
      <translation>预计剩余 {s} 秒</translation>
    </message>
    <message>
      <source>GPU memory</source>
      <translation>GPU 显存</translation>
    </message>
    <message>
      <source>step</source>
      <translation>步</translation>
    </message>
    <message>
      <source>Learning rate</source>
      <translation>学习率</translation>
    </message>
    <message>
      <source>Loss per token</source>
      <translation>每词元损失</translation>
    </message>
    <message>
      <source>valid</source>
      <translation>验证</translation>
    </message>
    <message>
      <source>train</source>
      <translation>训练</translation>
    </message>
    <message>
      <source>Settings</source>
      <translation>设置</translation>
    </message>
    <message>
      <source>Log</source>
      <translation>日志</translation>
    </message>
    <message>
      <source>Corpus</source>
      <translation>语料</translation>
    </message>
    <message>
      <source>Train on</source>
      <translation>训练数据</translation>
    </message>
    <message>
      <source>Synthetic task</source>
      <translation>合成任务</translation>
    </message>
    <message>
      <source>Two aligned files</source>
      <translation>两个对齐的文件</translation>
    </message>
    <message>
      <source>TSV file (source&lt;TAB&gt;target)</source>
      <translation>TSV 文件（源文&lt;TAB&gt;译文）</translation>
    </message>
    <message>
      <source>Ding dictionary (English–German)</source>
      <translation>Ding 词典（英–德）</translation>
    </message>
    <message>
      <source>Task</source>
      <translation>任务</translation>
    </message>
    <message>
      <source>Pairs</source>
      <translation>句对数</translation>
    </message>
    <message>
      <source>Source file</source>
      <translation>源语言文件</translation>
    </message>
    <message>
      <source>Browse…</source>
      <translation>浏览…</translation>
    </message>
    <message>
      <source>Target file</source>
      <translation>目标语言文件</translation>
    </message>
    <message>
      <source>TSV file</source>
      <translation>TSV 文件</translation>
    </message>
    <message>
      <source>Direction</source>
      <translation>方向</translation>
    </message>
    <message>
      <source>English → German</source>
      <translation>英语 → 德语</translation>
    </message>
    <message>
      <source>German → English</source>
      <translation>德语 → 英语</translation>
    </message>
    <message>
      <source>Model</source>
      <translation>模型</translation>
    </message>
    <message>
      <source>Preset</source>
      <translation>预设</translation>
    </message>
    <message>
      <source>Vocabulary</source>
      <translation>词表</translation>
    </message>
    <message>
      <source>Layers (N)</source>
      <translation>层数 (N)</translation>
    </message>
    <message>
      <source>d_model</source>
      <translation>d_model</translation>
    </message>
    <message>
      <source>Heads (h)</source>
      <translation>头数 (h)</translation>
    </message>
    <message>
      <source>d_ff</source>
      <translation>d_ff</translation>
    </message>
    <message>
      <source>Dropout</source>
      <translation>Dropout 比率</translation>
    </message>
    <message>
      <source>Shared embedding</source>
      <translation>共享嵌入</translation>
    </message>
    <message>
      <source>One matrix for the source and target embeddings and the pre-softmax projection (paper, section 3.4). Untick to give each its own.</source>
      <translation>源语言嵌入、目标语言嵌入和 softmax 前的线性变换共用一个矩阵（论文第 3.4 节）。取消勾选则各用各的矩阵。</translation>
    </message>
    <message>
      <source>source, target and output (paper)</source>
      <translation>源、目标与输出（同论文）</translation>
    </message>
    <message>
      <source>Warmup steps</source>
      <translation>预热步数</translation>
    </message>
    <message>
      <source>LR scale</source>
      <translation>学习率倍数</translation>
    </message>
    <message>
      <source>Batch tokens</source>
      <translation>每批词元数</translation>
    </message>
    <message>
      <source>Label smoothing</source>
      <translation>标签平滑</translation>
    </message>
    <message>
      <source>ε_ls of the paper's section 5.4; 0 = plain cross-entropy</source>
      <translation>论文第 5.4 节中的 ε_ls；0 即普通交叉熵</translation>
    </message>
    <message>
      <source>Max steps</source>
      <translation>最多步数</translation>
    </message>
    <message>
      <source>no limit</source>
      <translation>不限</translation>
    </message>
    <message>
      <source>Max minutes</source>
      <translation>最长分钟数</translation>
    </message>
    <message>
      <source>Validate every</source>
      <translation>验证间隔</translation>
    </message>
    <message>
      <source>never</source>
      <translation>从不</translation>
    </message>
    <message>
      <source>Checkpoint every</source>
      <translation>检查点间隔</translation>
    </message>
    <message>
      <source>only at the end</source>
      <translation>仅在结束时</translation>
    </message>
    <message>
      <source>Probe sentence</source>
      <translation>探针句子</translation>
    </message>
    <message>
      <source>a source sentence to watch (optional)</source>
      <translation>要观察的一个源语言句子（可选）</translation>
    </message>
    <message>
      <source>Probe every</source>
      <translation>探针间隔</translation>
    </message>
    <message>
      <source>Resume from</source>
      <translation>继续自</translation>
    </message>
    <message>
      <source>A run or checkpoint folder. Resuming keeps its model and corpus; the limits and intervals set here apply.</source>
      <translation>一次训练或一个检查点的文件夹。继续训练时沿用其模型和语料；这里设置的上限和间隔生效。</translation>
    </message>
    <message>
      <source>(a new run)</source>
      <translation>（新训练）</translation>
    </message>
    <message>
      <source>Device</source>
      <translation>设备</translation>
    </message>
    <message>
      <source>CPU</source>
      <translation>CPU</translation>
    </message>
    <message>
      <source>Start</source>
      <translation>开始</translation>
    </message>
    <message>
      <source>Stop</source>
      <translation>停止</translation>
    </message>
    <message>
      <source>Load the newest checkpoint of this run into the Attention tab</source>
      <translation>把本次训练最新的检查点加载到“注意力”标签页</translation>
    </message>
    <message>
      <source>Open in explorer</source>
      <translation>在注意力视图中打开</translation>
    </message>
    <message>
      <source>Table and waves</source>
      <translation>编码表与波形</translation>
    </message>
    <message>
      <source>Clock hands</source>
      <translation>时钟指针</translation>
    </message>
    <message>
      <source>Position</source>
      <translation>位置</translation>
    </message>
    <message>
      <source>Play</source>
      <translation>播放</translation>
    </message>
    <message>
      <source>Shift k</source>
      <translation>偏移 k</translation>
    </message>
    <message>
      <source>k: how many positions further the dashed hand is</source>
      <translation>k：虚线指针往后多少个位置</translation>
    </message>
    <message>
      <source>ω·1</source>
      <translation>ω·1</translation>
    </message>
    <message>
      <source>Positions</source>
      <translation>位置数</translation>
    </message>
    <message>
      <source>positions shown</source>
      <translation>显示的位置数</translation>
    </message>
    <message>
      <source>Sentence length</source>
      <translation>句子长度</translation>
    </message>
    <message>
      <source>sentence length (0: none)</source>
      <translation>句子长度（0：不标出）</translation>
    </message>
    <message>
      <source>Curves of dimensions</source>
      <translation>绘制曲线的维度</translation>
    </message>
    <message>
      <source>Dimensions to draw as curves, comma-separated (0-based)</source>
      <translation>要画成曲线的维度，用逗号分隔（从 0 开始）</translation>
    </message>
    <message>
      <source>Attention Explorer</source>
      <translation>Attention Explorer</translation>
    </message>
    <message>
      <source>Open a trained model folder (config.json, model.safetensors, spm.model),
or train a new model on a parallel corpus.</source>
      <translation>打开一个训练好的模型文件夹（config.json、model.safetensors、spm.model），
或者在平行语料上训练一个新模型。</translation>
    </message>
    <message>
      <source>Open model…</source>
      <translation>打开模型…</translation>
    </message>
    <message>
      <source>Train…</source>
      <translation>训练…</translation>
    </message>
    <message>
      <source>Source sentence</source>
      <translation>源语言句子</translation>
    </message>
    <message>
      <source>Type a sentence, then press Enter (Shift+Enter: a new line)</source>
      <translation>输入一个句子，然后按 Enter（Shift+Enter：换行）</translation>
    </message>
    <message>
      <source>Beam</source>
      <translation>束宽</translation>
    </message>
    <message>
      <source>Beam size: 4 as in the paper; 1 is greedy decoding (one best piece at a time)</source>
      <translation>束搜索宽度：论文中为 4；1 即贪心解码（每步只取最好的一个子词）</translation>
    </message>
    <message>
      <source>Translate the sentence (Enter)</source>
      <translation>翻译这个句子（Enter）</translation>
    </message>
    <message>
      <source>Translation</source>
      <translation>译文</translation>
    </message>
    <message>
      <source>Recent sentences</source>
      <translation>最近的句子</translation>
    </message>
    <message>
      <source>Click a sentence to translate it again</source>
      <translation>点击句子即可再次翻译</translation>
    </message>
    <message>
      <source>Heads removed</source>
      <translation>已移除的头</translation>
    </message>
    <message>
      <source>Put every removed head back and translate again</source>
      <translation>把所有移除的头放回去并重新翻译</translation>
    </message>
    <message>
      <source>Restore all heads</source>
      <translation>恢复所有头</translation>
    </message>
    <message>
      <source>With every head:</source>
      <translation>使用全部头：</translation>
    </message>
    <message>
      <source>With the heads removed:</source>
      <translation>移除这些头后：</translation>
    </message>
    <message>
      <source>Model:</source>
      <translation>模型：</translation>
    </message>
    <message>
      <source>Origin:</source>
      <translation>来源：</translation>
    </message>
    <message>
      <source>Parameters:</source>
      <translation>参数：</translation>
    </message>
    <message>
      <source>Shape:</source>
      <translation>结构：</translation>
    </message>
    <message>
      <source>Vocabulary:</source>
      <translation>词表：</translation>
    </message>
    <message>
      <source>Device:</source>
      <translation>设备：</translation>
    </message>
    <message>
      <source>Licence:</source>
      <translation>许可证：</translation>
    </message>
    <message>
      <source>not stated: a model takes the terms of its training data</source>
      <translation>未注明：模型沿用其训练数据的许可条款</translation>
    </message>
    <message>
      <source>What the weights are distributed under (the model folder's LICENSE or card); Attention Explorer's code is MIT-licensed</source>
      <translation>权重的分发许可（见模型文件夹中的 LICENSE 或模型卡）；Attention Explorer 的代码采用 MIT 许可证</translation>
    </message>
    <message>
      <source>Note:</source>
      <translation>备注：</translation>
    </message>
    <message>
      <source>Setting</source>
      <translation>设置项</translation>
    </message>
    <message>
      <source>Value</source>
      <translation>值</translation>
    </message>
    <message>
      <source>&amp;File</source>
      <translation>文件(&amp;F)</translation>
    </message>
    <message>
      <source>Open &amp;recent</source>
      <translation>最近打开(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;View</source>
      <translation>视图(&amp;V)</translation>
    </message>
    <message>
      <source>&amp;Colour map</source>
      <translation>配色(&amp;C)</translation>
    </message>
    <message>
      <source>&amp;Language</source>
      <translation>语言(&amp;L)</translation>
    </message>
    <message>
      <source>Attention formula</source>
      <translation>注意力公式</translation>
    </message>
    <message>
      <source>Example</source>
      <translation>示例</translation>
    </message>
    <message>
      <source>Sentence</source>
      <translation>句子</translation>
    </message>
    <message>
      <source>without ÷√d_k</source>
      <translation>不除以 √d_k</translation>
    </message>
    <message>
      <source>show all</source>
      <translation>全部显示</translation>
    </message>
    <message>
      <source>q  (the query: x W^Q)</source>
      <translation>q  （查询：x W^Q）</translation>
    </message>
    <message>
      <source>k_j  (the clicked key: x_j W^K)</source>
      <translation>k_j  （所点击的键：x_j W^K）</translation>
    </message>
    <message>
      <source>q · k_j  for every key j</source>
      <translation>q · k_j  （对每个键 j）</translation>
    </message>
    <message>
      <source>q · k_j / √d_k</source>
      <translation>q · k_j / √d_k</translation>
    </message>
    <message>
      <source>mask: −∞ for the future (j &gt; i)</source>
      <translation>掩码：未来位置记为 −∞（j &gt; i）</translation>
    </message>
    <message>
      <source>Σ_j a_j v_j  (this head's output)</source>
      <translation>Σ_j a_j v_j  （该头的输出）</translation>
    </message>
    <message>
      <source>without ÷√d_k the row is sharper</source>
      <translation>不除以 √d_k 时这一行更尖锐</translation>
    </message>
    <message>
      <source>Beam hypotheses</source>
      <translation>束搜索假设</translation>
    </message>
    <message>
      <source>log P</source>
      <translation>log P</translation>
    </message>
    <message>
      <source>|Y|</source>
      <translation>|Y|</translation>
    </message>
    <message>
      <source>lp</source>
      <translation>lp</translation>
    </message>
    <message>
      <source>score</source>
      <translation>得分</translation>
    </message>
    <message>
      <source>Export...</source>
      <translation>导出…</translation>
    </message>
    <message>
      <source>Image (PNG)…</source>
      <translation>图像（PNG）…</translation>
    </message>
    <message>
      <source>Vector image (SVG)…</source>
      <translation>矢量图（SVG）…</translation>
    </message>
    <message>
      <source>Shown matrix (CSV)…</source>
      <translation>当前矩阵（CSV）…</translation>
    </message>
    <message>
      <source>All maps (NPZ)…</source>
      <translation>全部注意力图（NPZ）…</translation>
    </message>
    <message>
      <source>Decode &amp;step by step</source>
      <translation>逐步解码(&amp;S)</translation>
    </message>
    <message>
      <source>&amp;Open model folder…</source>
      <translation>打开模型文件夹(&amp;O)…</translation>
    </message>
    <message>
      <source>Export view as PNG/SVG…</source>
      <translation>将视图导出为 PNG/SVG…</translation>
    </message>
    <message>
      <source>Export attention as NPZ/CSV…</source>
      <translation>将注意力导出为 NPZ/CSV…</translation>
    </message>
    <message>
      <source>&amp;Quit</source>
      <translation>退出(&amp;Q)</translation>
    </message>
    <message>
      <source>Zoom &amp;in</source>
      <translation>放大(&amp;I)</translation>
    </message>
    <message>
      <source>Zoom &amp;out</source>
      <translation>缩小(&amp;O)</translation>
    </message>
    <message>
      <source>&amp;Reset zoom</source>
      <translation>重置缩放(&amp;R)</translation>
    </message>
    <message>
      <source>&amp;Full screen</source>
      <translation>全屏(&amp;F)</translation>
    </message>
    <message>
      <source>&amp;Presentation mode</source>
      <translation>演示模式(&amp;P)</translation>
    </message>
    <message>
      <source>&amp;Model info</source>
      <translation>模型信息(&amp;M)</translation>
    </message>
    <message>
      <source>Research &amp;workbench</source>
      <translation>研究工作台(&amp;W)</translation>
    </message>
    <message>
      <source>&amp;Attention formula</source>
      <translation>注意力公式(&amp;A)</translation>
    </message>
    <message>
      <source>&amp;Beam hypotheses</source>
      <translation>束搜索假设(&amp;B)</translation>
    </message>
    <message>
      <source>Restore all removed heads</source>
      <translation>恢复所有移除的头</translation>
    </message>
    <message>
      <source>Compare with &amp;model…</source>
      <translation>与模型比较(&amp;M)…</translation>
    </message>
    <message>
      <source>Stop comparing</source>
      <translation>停止比较</translation>
    </message>
    <message>
      <source>Save lesson &amp;slide…</source>
      <translation>保存课程幻灯片(&amp;S)…</translation>
    </message>
    <message>
      <source>Open &amp;lesson…</source>
      <translation>打开课程(&amp;L)…</translation>
    </message>
    <message>
      <source>Cross</source>
      <translation>交叉</translation>
    </message>
    <message>
      <source>Decoder</source>
      <translation>解码器</translation>
    </message>
    <message>
      <source>Decoder masked self</source>
      <translation>解码器掩码自注意力</translation>
    </message>
    <message>
      <source>Encoder</source>
      <translation>编码器</translation>
    </message>
    <message>
      <source>Encoder self</source>
      <translation>编码器自注意力</translation>
    </message>
    <message>
      <source>Encoder self-attention</source>
      <translation>编码器自注意力</translation>
    </message>
    <message>
      <source>Encoder–decoder cross</source>
      <translation>编码器–解码器交叉注意力</translation>
    </message>
    <message>
      <source>Encoder–decoder cross-attention</source>
      <translation>编码器–解码器交叉注意力</translation>
    </message>
    <message>
      <source>Key: source token</source>
      <translation>键：源语言词元</translation>
    </message>
    <message>
      <source>Key: source token (encoder output)</source>
      <translation>键：源语言词元（编码器输出）</translation>
    </message>
    <message>
      <source>Key: target token (earlier positions)</source>
      <translation>键：目标语言词元（之前的位置）</translation>
    </message>
    <message>
      <source>Keys (source)</source>
      <translation>键（源语言）</translation>
    </message>
    <message>
      <source>Keys (target)</source>
      <translation>键（目标语言）</translation>
    </message>
    <message>
      <source>Mean over heads</source>
      <translation>各头平均</translation>
    </message>
    <message>
      <source>Pieces: ·ther continues the word before it,   ␣ is a lone space,   &lt;s&gt; and &lt;/s&gt; start and end a sentence</source>
      <translation>子词：·ther 表示接续前一个词，   ␣ 表示单独的空格，   &lt;s&gt; 和 &lt;/s&gt; 表示句子的开始和结束</translation>
    </message>
    <message>
      <source>Queries (source)</source>
      <translation>查询（源语言）</translation>
    </message>
    <message>
      <source>Queries (target)</source>
      <translation>查询（目标语言）</translation>
    </message>
    <message>
      <source>Query: source token</source>
      <translation>查询：源语言词元</translation>
    </message>
    <message>
      <source>Query: target token (decoder input)</source>
      <translation>查询：目标语言词元（解码器输入）</translation>
    </message>
    <message>
      <source>Translate a sentence to see its attention</source>
      <translation>翻译一个句子即可查看它的注意力</translation>
    </message>
    <message>
      <source>Translate a sentence: its decoding appears here one step at a time.</source>
      <translation>翻译一个句子：它的解码过程会在这里一步一步地显示。</translation>
    </message>
    <message>
      <source>Translating…  (the maps shown are the previous sentence's)</source>
      <translation>正在翻译…  （当前显示的是上一个句子的注意力图）</translation>
    </message>
    <message>
      <source>a = softmax(q Kᵀ / √d_k)</source>
      <translation>a = softmax(q Kᵀ / √d_k)</translation>
    </message>
    <message>
      <source>Layer {layer}, head {head} — max weight {peak:.3f} (click to open)</source>
      <translation type="obsolete">第 {layer} 层，第 {head} 头 — 最大权重 {peak:.3f}（点击打开）</translation>
    </message>
    <message>
      <source>&amp;Models</source>
      <translation>模型(&amp;M)</translation>
    </message>
    <message>
      <source>English</source>
      <translation>英语</translation>
    </message>
    <message>
      <source>German</source>
      <translation>德语</translation>
    </message>
    <message>
      <source>Chinese</source>
      <translation>中文</translation>
    </message>
    <message>
      <source>French</source>
      <translation>法语</translation>
    </message>
    <message>
      <source>Spanish</source>
      <translation>西班牙语</translation>
    </message>
    <message>
      <source>Japanese</source>
      <translation>日语</translation>
    </message>
    <message>
      <source>Built-in model: {path}</source>
      <translation>内置模型：{path}</translation>
    </message>
    <message>
      <source>{pair} (built-in)</source>
      <translation>{pair}（内置）</translation>
    </message>
    <message>
      <source>This lesson was made with the model {name}, which is not on this machine; it plays on the model in use</source>
      <translation>这节课是用模型 {name} 做的，这台电脑上没有它；现在用当前的模型播放</translation>
    </message>
    <message>
      <source>(Chinese and Japanese output: each piece counts as a word)</source>
      <translation>（中文和日文译文：每个子词算作一个词）</translation>
    </message>
    <message>
      <source>Languages</source>
      <translation>语言</translation>
    </message>
    <message>
      <source>Test BLEU</source>
      <translation>测试 BLEU</translation>
    </message>
    <message>
      <source>Licence</source>
      <translation>许可证</translation>
    </message>
    <message>
      <source>Size</source>
      <translation>大小</translation>
    </message>
    <message>
      <source>BLEU {bleu:.1f} on {test_set}, as its model card reports.</source>
      <translation>模型卡报告：在 {test_set} 上 BLEU {bleu:.1f}。</translation>
    </message>
    <message>
      <source>Get a model</source>
      <translation>获取模型</translation>
    </message>
    <message>
      <source>or any other Hub model: owner/name or its URL</source>
      <translation>或 Hub 上的其他模型：owner/name 或它的网址</translation>
    </message>
    <message>
      <source>Files go to the Hugging Face cache: {folder}</source>
      <translation>文件存放在 Hugging Face 缓存：{folder}</translation>
    </message>
    <message>
      <source>Download</source>
      <translation>下载</translation>
    </message>
    <message>
      <source>Cancel download</source>
      <translation>取消下载</translation>
    </message>
    <message>
      <source>Close</source>
      <translation>关闭</translation>
    </message>
    <message>
      <source>Asking the Hub about {repo}…</source>
      <translation>正在向 Hub 查询 {repo}…</translation>
    </message>
    <message>
      <source>Cancelling…</source>
      <translation>正在取消…</translation>
    </message>
    <message>
      <source>{repo}: {files} files, {size}</source>
      <translation>{repo}：{files} 个文件，{size}</translation>
    </message>
    <message>
      <source>{repo} is ready; opening it.</source>
      <translation>{repo} 已就绪，正在打开。</translation>
    </message>
    <message>
      <source>downloaded</source>
      <translation>已下载</translation>
    </message>
    <message>
      <source>Open</source>
      <translation>打开</translation>
    </message>
    <message>
      <source>{repo} is already downloaded.</source>
      <translation>{repo} 已经下载过了。</translation>
    </message>
    <message>
      <source>see the model card</source>
      <translation>见模型卡</translation>
    </message>
    <message>
      <source>&amp;Get a model…</source>
      <translation>获取模型(&amp;G)…</translation>
    </message>
    <message>
      <source>Download a pretrained OPUS-MT translation model from the Hugging Face Hub</source>
      <translation>从 Hugging Face Hub 下载预训练的 OPUS-MT 翻译模型</translation>
    </message>
    <message>
      <source>Get a model…</source>
      <translation>获取模型…</translation>
    </message>
    <message>
      <source>trained on Bible translations only: expect archaic Japanese for everyday text</source>
      <translation>只用圣经译文训练：日常文本会译成古旧的日语</translation>
    </message>
    <message>
      <source>Translate a file</source>
      <translation>翻译文件</translation>
    </message>
    <message>
      <source>&amp;Translate a file…</source>
      <translation>翻译文件(&amp;T)…</translation>
    </message>
    <message>
      <source>A UTF-8 text file; its translation is saved beside it.</source>
      <translation>一个 UTF-8 文本文件；译文保存在它旁边。</translation>
    </message>
    <message>
      <source>Choose a file…</source>
      <translation>选择文件…</translation>
    </message>
    <message>
      <source>Cancelled.</source>
      <translation>已取消。</translation>
    </message>
    <message>
      <source>Cancelled; the previous result is shown again.</source>
      <translation>已取消；重新显示上一次的结果。</translation>
    </message>
    <message>
      <source>|∂loss/∂gate|</source>
      <translation>|∂损失/∂门控|</translation>
    </message>
    <message>
      <source>Cancelled; nothing was written.</source>
      <translation>已取消，没有写入任何文件。</translation>
    </message>
    <message>
      <source>Text files (*.txt);;All files (*)</source>
      <translation>文本文件 (*.txt);;所有文件 (*)</translation>
    </message>
    <message>
      <source>Open a model first.</source>
      <translation>请先打开一个模型。</translation>
    </message>
    <message>
      <source>Reading and splitting {name}…</source>
      <translation>正在读取并切分 {name}…</translation>
    </message>
    <message>
      <source>{done} of {total} sentences</source>
      <translation>{done} / {total} 句</translation>
    </message>
    <message>
      <source>{sentences} sentences translated, saved to {path}</source>
      <translation>已翻译 {sentences} 句，保存到 {path}</translation>
    </message>
    <message>
      <source>line {line}: {note}: {source}</source>
      <translation>第 {line} 行：{note}：{source}</translation>
    </message>
    <message>
      <source>the model repeated itself</source>
      <translation>模型在重复自己</translation>
    </message>
    <message>
      <source>stopped at the length limit</source>
      <translation>在长度上限处停止</translation>
    </message>
    <message>
      <source>no translation came out</source>
      <translation>没有产生译文</translation>
    </message>
    <message>
      <source>Copy</source>
      <translation>复制</translation>
    </message>
    <message>
      <source>Copy the whole translation</source>
      <translation>复制整段译文</translation>
    </message>
    <message>
      <source>Choose a sentence to see its attention</source>
      <translation>选择一个句子，查看它的注意力</translation>
    </message>
    <message>
      <source>Source</source>
      <translation>原文</translation>
    </message>
    <message>
      <source>{n} sentences in, {n} translations out</source>
      <translation>输入 {n} 句，输出 {n} 句译文</translation>
    </message>
    <message>
      <source>{k} came out empty (marked)</source>
      <translation>其中 {k} 句译文为空（已标出）</translation>
    </message>
    <message>
      <source>sentence {i} of {n}: </source>
      <translation>第 {i} 句（共 {n} 句）：</translation>
    </message>
    <message>
      <source>To review, least sure first:</source>
      <translation>待检查，最不确定的在前：</translation>
    </message>
    <message>
      <source>line {line}</source>
      <translation>第 {line} 行</translation>
    </message>
    <message>
      <source>P({piece}) = {p:.2f}</source>
      <translation>P({piece}) = {p:.2f}</translation>
    </message>
    <message>
      <source>mean log P {value:.2f}</source>
      <translation>平均 log P {value:.2f}</translation>
    </message>
    <message>
      <source>never seen in training</source>
      <translation>训练中从未见过</translation>
    </message>
    <message>
      <source>Decoder self (masked)</source>
      <translation>解码器自注意力（带遮罩）</translation>
    </message>
    <message>
      <source>Cross (encoder–decoder)</source>
      <translation>交叉注意力（编码器–解码器）</translation>
    </message>
    <message>
      <source>Remove head {layer}.{head} ({kind})</source>
      <translation>移除头 {layer}.{head}（{kind}）</translation>
    </message>
    <message>
      <source>Restore head {layer}.{head} ({kind})</source>
      <translation>恢复头 {layer}.{head}（{kind}）</translation>
    </message>
    <message>
      <source>Slide {n} saved to {name}</source>
      <translation>第 {n} 张幻灯片已保存到 {name}</translation>
    </message>
    <message>
      <source>Lesson ended</source>
      <translation>课程已结束</translation>
    </message>
    <message>
      <source>Could not save the slide</source>
      <translation>无法保存幻灯片</translation>
    </message>
    <message>
      <source>Could not open the lesson</source>
      <translation>无法打开课程</translation>
    </message>
    <message>
      <source>Add the view as a slide to the lesson</source>
      <translation>把当前视图作为一张幻灯片加入课程</translation>
    </message>
    <message>
      <source>Open lesson</source>
      <translation>打开课程</translation>
    </message>
    <message>
      <source>Save lesson slide</source>
      <translation>保存课程幻灯片</translation>
    </message>
    <message>
      <source>Title of the slide, shown above the view while the lesson plays (may be empty):</source>
      <translation>幻灯片标题，播放课程时显示在视图上方（可以留空）：</translation>
    </message>
    <message>
      <source>■ End of the lesson: slide {n} of {n} was the last   (PageUp back, Esc ends the lesson)</source>
      <translation>■ 课程到此结束：第 {n} 张（共 {n} 张）是最后一张   （PageUp 返回，Esc 结束课程）</translation>
    </message>
    <message>
      <source>End of the lesson: no slide after slide {n}</source>
      <translation>课程结束：第 {n} 张之后没有幻灯片了</translation>
    </message>
    <message>
      <source>removed</source>
      <translation>已移除</translation>
    </message>
    <message>
      <source>CSV table, raw pieces (*.csv)</source>
      <translation>CSV 表格，原始子词 (*.csv)</translation>
    </message>
    <message>
      <source>CSV table, pieces as shown (*.csv)</source>
      <translation>CSV 表格，与窗口显示相同的子词 (*.csv)</translation>
    </message>
    <message>
      <source>CSV of the shown matrix, raw pieces (*.csv)</source>
      <translation>当前矩阵的 CSV，原始子词 (*.csv)</translation>
    </message>
    <message>
      <source>CSV of the shown matrix, pieces as shown (*.csv)</source>
      <translation>当前矩阵的 CSV，与窗口显示相同的子词 (*.csv)</translation>
    </message>
    <message>
      <source>Shown: gradient estimate (|∂loss/∂gate| per head, Michel et al. 2019); the exact BLEU drop follows.</source>
      <translation>当前显示：梯度估计（每个头的 |∂损失/∂门控|，Michel 等 2019）；精确的 BLEU 下&#x2060;降&#x2060;随&#x2060;后&#x2060;给&#x2060;出。</translation>
    </message>
    <message>
      <source>Shown: gradient estimate (|∂loss/∂gate| per head, Michel et al. 2019); the exact run was cancelled.</source>
      <translation>当前显示：梯度估计（每个头的 |∂损失/∂门控|，Michel 等 2019）；精确运行已&#x2060;取&#x2060;消。</translation>
    </message>
    <message>
      <source>Shown: exact BLEU drop (each head removed and the test set translated again).</source>
      <translation>当前显示：精确的 BLEU 下降（逐个移除头并重新翻译测试集）。</translation>
    </message>
    <message>
      <source>Loss {loss:.3f} on {n} sentences. Cells: |∂loss/∂gate|; largest {head}, {value:.2f}.</source>
      <translation>{n} 个句子上的损失为 {loss:.3f}。格子：|∂损失/∂门控|；最大的是 {head}，{value:.2f}。</translation>
    </message>
    <message>
      <source>{src:,} source + {n:,} target pieces</source>
      <translation>源语言 {src:,} 个子词 + 目标语言 {n:,} 个子词</translation>
    </message>
    <message>
      <source>{message} (the training processes exited with code {code})</source>
      <translation>{message}（训练进程以退出码 {code} 结束）</translation>
    </message>
    <message>
      <source>the training processes failed (exit code {code}); {kept}. Last messages:
{lines}</source>
      <translation>训练进程失败（退出码 {code}）；{kept}。最后的消息：
{lines}</translation>
    </message>
    <message>
      <source>training stopped: the loss became {value} at step {step}; {kept}. Try a smaller learning-rate scale or more warmup steps.</source>
      <translation>训练已停止：第 {step} 步的损失变成了 {value}；{kept}。请试试更小的学习率倍数或更多的预热步数。</translation>
    </message>
    <message>
      <source>training stopped at step {step}: {diverged}; {kept}. Try a smaller learning-rate scale or more warmup steps.</source>
      <translation>训练在第 {step} 步停止：{diverged}；{kept}。请试试更小的学习率倍数或更多的预热步数。</translation>
    </message>
    <message>
      <source>the GPU ran out of memory at step {step} with batches of {tokens} tokens; try fewer batch tokens (e.g. {half}). </source>
      <translation>GPU 显存在第 {step} 步耗尽（每批 {tokens} 个词元）；请减少每批词元数（例如 {half}）。</translation>
    </message>
    <message>
      <source>the GPU ran out of memory at step {step} with batches of {tokens} tokens; try fewer batch tokens (e.g. {half}). The last good checkpoint {path} is intact.</source>
      <translation>GPU 显存在第 {step} 步耗尽（每批 {tokens} 个词元）；请减少每批词元数（例如 {half}）。最后一个有效的检查点 {path} 完好无损。</translation>
    </message>
    <message>
      <source>{why} while saving step {step}; {kept}</source>
      <translation>保存第 {step} 步时出错：{why}；{kept}</translation>
    </message>
    <message>
      <source>cannot write to the output folder {path}: {reason}</source>
      <translation>无法写入输出文件夹 {path}：{reason}</translation>
    </message>
    <message>
      <source>{path} is a file, not a folder: choose a folder for the run</source>
      <translation>{path} 是一个文件，不是文件夹：请为这次运行选择一个文件夹</translation>
    </message>
    <message>
      <source>{path} already holds a training run: continue it with “Resume from”, choose another folder, or delete its step-* folders and LATEST to start over in it</source>
      <translation>{path} 中已有一次训练运行：可在“继续自”中选择它以继续训练，或选择另一个文件夹，或删除其中的 step-* 文件夹和 LATEST 文件后在其中重新开始</translation>
    </message>
    <message>
      <source>another training run (pid {pid}) is writing to {path}; wait for it or stop it (touch STOP in the folder), or choose another --out</source>
      <translation>另一次训练运行（进程 {pid}）正在写入 {path}；请等它结束或停止它（在该文件夹中创建 STOP 文件），或选择另一个输出文件夹</translation>
    </message>
    <message>
      <source>corpus file not found: {path}</source>
      <translation>找不到语料文件：{path}</translation>
    </message>
    <message>
      <source>the corpus path is a folder, not a file: {path}</source>
      <translation>语料路径是一个文件夹，不是文件：{path}</translation>
    </message>
    <message>
      <source>cannot read the corpus file {path}: {reason}</source>
      <translation>无法读取语料文件 {path}：{reason}</translation>
    </message>
    <message>
      <source>{path} is not UTF-8 text (bad byte at line {line}); convert it with iconv</source>
      <translation>{path} 不是 UTF-8 文本（第 {line} 行有无效字节）；请用 iconv 转换编码</translation>
    </message>
    <message>
      <source>{path} looks like a binary file, not text</source>
      <translation>{path} 看起来是二进制文件，不是文本</translation>
    </message>
    <message>
      <source>{path} holds no usable sentence pairs ({n} lines skipped)</source>
      <translation>{path} 中没有可用的句对（跳过了 {n} 行）</translation>
    </message>
    <message>
      <source>{path} has {n} lines but {other} has {m}: the files must be aligned line by line</source>
      <translation>{path} 有 {n} 行，而 {other} 有 {m} 行：两个文件必须逐行对齐</translation>
    </message>
    <message>
      <source>{path} holds no tab-separated pairs (is it a TSV file?)</source>
      <translation>{path} 中没有以制表符分隔的句对（它是 TSV 文件吗？）</translation>
    </message>
    <message>
      <source>no training pairs are left after holding out the validation set; the corpus is too small</source>
      <translation>留出验证集后没有剩下任何训练句对；语料太少</translation>
    </message>
    <message>
      <source>no training pair fits the length limit after tokenization</source>
      <translation>分词后没有一个训练句对符合长度限制</translation>
    </message>
    <message>
      <source>the checkpoint's model config differs from the run's; resume with the same model</source>
      <translation>检查点的模型配置与这次运行的不同；请用相同的模型继续训练</translation>
    </message>
    <message>
      <source>model folder not found: {path}</source>
      <translation>找不到模型文件夹：{path}</translation>
    </message>
    <message>
      <source>not a model folder: {path} has no {file} (expected {files})</source>
      <translation>不是模型文件夹：{path} 中没有 {file}（应有 {files}）</translation>
    </message>
    <message>
      <source>a model of {params} M parameters needs at least {need} GiB to train (weights, gradients and Adam's two moments, before activations), but {device} has {free} GiB free; choose a smaller preset or d_model</source>
      <translation>训练一个 {params} M 参数的模型至少需要 {need} GiB 内存（权重、梯度和 Adam 的两个矩，不含激活值），但 {device} 只有 {free} GiB 可用；请选择更小的预设或 d_model</translation>
    </message>
    <message>
      <source>Unexpected error: {kind}: {error}</source>
      <translation>意外错误：{kind}：{error}</translation>
    </message>
    <message>
      <source>the last good checkpoint {path} is intact</source>
      <translation>最后一个有效的检查点 {path} 完好无损</translation>
    </message>
    <message>
      <source>no checkpoint was written yet</source>
      <translation>还没有写入任何检查点</translation>
    </message>
    <message>
      <source>no checkpoint was written</source>
      <translation>没有写入任何检查点</translation>
    </message>
    <message>
      <source>the previous checkpoint {name} is intact</source>
      <translation>上一个检查点 {name} 完好无损</translation>
    </message>
    <message>
      <source>no earlier checkpoint of this run exists</source>
      <translation>这次运行还没有更早的检查点</translation>
    </message>
    <message>
      <source>the loss diverged: {loss} for {reports} reports in a row, worse than guessing uniformly among {vocab} pieces (ln V = {ln_v})</source>
      <translation>损失发散：连续 {reports} 次报告为 {loss}，比在 {vocab} 个子词中均匀猜测还差（ln V = {ln_v}）</translation>
    </message>
    <message>
      <source>the loss diverged: {loss} for {reports} reports in a row, against {best} earlier in the run</source>
      <translation>损失发散：连续 {reports} 次报告为 {loss}，而本次运行早些时候曾为 {best}</translation>
    </message>
    <message>
      <source>no space left on the disk of {path}</source>
      <translation>{path} 所在的磁盘已满</translation>
    </message>
    <message>
      <source>cannot write to {path} ({reason})</source>
      <translation>无法写入 {path}（{reason}）</translation>
    </message>
    <message>
      <source>Permission denied</source>
      <translation>权限不足</translation>
    </message>
    <message>
      <source>No space left on device</source>
      <translation>设备上没有剩余空间</translation>
    </message>
    <message>
      <source>Read-only file system</source>
      <translation>文件系统是只读的</translation>
    </message>
    <message>
      <source>No such file or directory</source>
      <translation>没有这个文件或文件夹</translation>
    </message>
    <message>
      <source>Not a directory</source>
      <translation>不是文件夹</translation>
    </message>
    <message>
      <source>Is a directory</source>
      <translation>是一个文件夹</translation>
    </message>
    <message>
      <source>the sentence is too long ({n} characters; at most {limit}); split it</source>
      <translation>句子太长（{n} 个字符；最多 {limit} 个）；请把它拆开</translation>
    </message>
    <message>
      <source>the sentence is too long ({n} pieces; at most {limit}); split it</source>
      <translation>句子太长（{n} 个子词；最多 {limit} 个）；请把它拆开</translation>
    </message>
    <message>
      <source>the sentence must be text</source>
      <translation>句子必须是文本</translation>
    </message>
    <message>
      <source>not a model folder (it is a file): {path}</source>
      <translation>不是模型文件夹（这是一个文件）：{path}</translation>
    </message>
    <message>
      <source>{path} has no model.safetensors (found {found}; only safetensors weights are loaded)</source>
      <translation>{path} 中没有 model.safetensors（找到了 {found}；只加载 safetensors 格式的权重）</translation>
    </message>
    <message>
      <source>{path} has no model.safetensors</source>
      <translation>{path} 中没有 model.safetensors</translation>
    </message>
    <message>
      <source>{path} has no tokenizer (spm.model)</source>
      <translation>{path} 中没有分词器（spm.model）</translation>
    </message>
    <message>
      <source>{path} is a Marian model without {name} (it needs {files})</source>
      <translation>{path} 是一个 Marian 模型，但缺少 {name}（需要 {files}）</translation>
    </message>
    <message>
      <source>{path} has no 'model' section: not an Attention Explorer model</source>
      <translation>{path} 中没有“model”部分：不是 Attention Explorer 模型</translation>
    </message>
    <message>
      <source>{path} holds an invalid model config: {reason}</source>
      <translation>{path} 中的模型配置无效：{reason}</translation>
    </message>
    <message>
      <source>{path} is corrupt or truncated ({reason})</source>
      <translation>{path} 已损坏或不完整（{reason}）</translation>
    </message>
    <message>
      <source>{path}: {name} holds NaN or infinite values</source>
      <translation>{path}：{name} 含有 NaN 或无穷大的值</translation>
    </message>
    <message>
      <source>No attention to show: the sentence could not be translated</source>
      <translation>没有可显示的注意力：这个句子无法翻译</translation>
    </message>
    <message>
      <source>pad_id must be a piece id below vocab_size, got {value}</source>
      <translation>pad_id 必须是小于 vocab_size 的词元编号，实际为 {value}</translation>
    </message>
    <message>
      <source>vocab_size must leave room for the 4 special pieces</source>
      <translation>vocab_size 必须为 4 个特殊词元留出位置</translation>
    </message>
    <message>
      <source>a separate source vocabulary (src_vocab_size) needs share_embeddings false</source>
      <translation>单独的源语言词表（src_vocab_size）要求 share_embeddings 为 false</translation>
    </message>
    <message>
      <source>src_vocab_size must be 0 (shared) or between 5 and {limit}, got {value}</source>
      <translation>src_vocab_size 必须为 0（共用词表）或在 5 到 {limit} 之间，实际为 {value}</translation>
    </message>
    <message>
      <source>pad_id ({value}) is outside the source vocabulary of {size}</source>
      <translation>pad_id（{value}）超出了大小为 {size} 的源语言词表</translation>
    </message>
    <message>
      <source>d_model ({d_model}) must be divisible by n_heads ({n_heads})</source>
      <translation>d_model（{d_model}）必须能被 n_heads（{n_heads}）整除</translation>
    </message>
    <message>
      <source>norm_eps must be in (0, 1), got {value}</source>
      <translation>norm_eps 必须在 (0, 1) 之内，实际为 {value}</translation>
    </message>
    <message>
      <source>unknown model config fields: {names}</source>
      <translation>有未知的字段：{names}</translation>
    </message>
    <message>
      <source>{name} must be a whole number, got {value}</source>
      <translation>{name} 必须是整数，实际为 {value}</translation>
    </message>
    <message>
      <source>{name} must be between 1 and {limit}, got {value}</source>
      <translation>{name} 必须在 1 到 {limit} 之间，实际为 {value}</translation>
    </message>
    <message>
      <source>{name} must be a number, got {value}</source>
      <translation>{name} 必须是数字，实际为 {value}</translation>
    </message>
    <message>
      <source>{name} must be true or false, got {value}</source>
      <translation>{name} 必须是 true 或 false，实际为 {value}</translation>
    </message>
    <message>
      <source>{name} must be one of {choices}, got {value}</source>
      <translation>{name} 必须是 {choices} 之一，实际为 {value}</translation>
    </message>
    <message>
      <source>{name} ({value}) is outside the vocabulary of {size}</source>
      <translation>{name}（{value}）超出了大小为 {size} 的词表</translation>
    </message>
    <message>
      <source>{name} must be in [0, 1), got {value}</source>
      <translation>{name} 必须在 [0, 1) 之内，实际为 {value}</translation>
    </message>
    <message>
      <source>offline (HF_HUB_OFFLINE is set): nothing is downloaded; where there is network run: {command}</source>
      <translation>离线（已设置 HF_HUB_OFFLINE）：不会下载任何内容；请在有网络的地方运行：{command}</translation>
    </message>
    <message>
      <source>{repo} is not on the Hub ({endpoint}), or it is private or gated</source>
      <translation>Hub（{endpoint}）上没有 {repo}，或者它是私有的、需要授权的</translation>
    </message>
    <message>
      <source>{repo} has no revision {revision}</source>
      <translation>{repo} 没有版本 {revision}</translation>
    </message>
    <message>
      <source>{where} is missing on the Hub; the repository is incomplete</source>
      <translation>Hub 上缺少 {where}：这个仓库不完整</translation>
    </message>
    <message>
      <source>{repo} is gated: accept its terms on the Hub and log in (hf auth login) first</source>
      <translation>{repo} 需要授权：请先在 Hub 上接受它的条款并登录（hf auth login）</translation>
    </message>
    <message>
      <source>the Hub answered an error for {where}; try again later</source>
      <translation>Hub 对 {where} 返回了错误；请稍后再试</translation>
    </message>
    <message>
      <source>the Hub answered {status} for {where}; try again later</source>
      <translation>Hub 对 {where} 返回了 {status}；请稍后再试</translation>
    </message>
    <message>
      <source>{where}: the connection dropped mid-file; run {command} again to resume</source>
      <translation>{where}：连接在文件下载中途断开；再次运行 {command} 即可续传</translation>
    </message>
    <message>
      <source>cannot reach {endpoint} (no network?): nothing was changed; where there is network run: {command} (the partial download resumes)</source>
      <translation>无法连接 {endpoint}（没有网络？）：什么都没有改变；请在有网络的地方运行：{command}（已下载的部分会续传）</translation>
    </message>
    <message>
      <source>cannot reach {endpoint} (no network?): nothing was changed; where there is network run: {command}</source>
      <translation>无法连接 {endpoint}（没有网络？）：什么都没有改变；请在有网络的地方运行：{command}</translation>
    </message>
    <message>
      <source>the disk holding {folder} is full: free some space and run {command} again (the partial download resumes)</source>
      <translation>{folder} 所在的磁盘已满：请腾出空间后再次运行 {command}（已下载的部分会续传）</translation>
    </message>
    <message>
      <source>{where} arrived cut short; run {command} again to resume</source>
      <translation>{where} 没有下载完整；再次运行 {command} 即可续传</translation>
    </message>
    <message>
      <source>{repo} is a {kind} model, not a Marian (OPUS-MT) translation model</source>
      <translation>{repo} 是 {kind} 模型，不是 Marian（OPUS-MT）翻译模型</translation>
    </message>
    <message>
      <source>{repo} is not a Marian (OPUS-MT) translation model: it has no {lacks}</source>
      <translation>{repo} 不是 Marian（OPUS-MT）翻译模型：它没有 {lacks}</translation>
    </message>
    <message>
      <source>{repo}: the download finished but the cache does not hold every file; run again</source>
      <translation>{repo}：下载已结束，但缓存中缺少部分文件；请再试一次</translation>
    </message>
    <message>
      <source>{repo}: the Hub gave no ETag or size for {name}; cannot check the download</source>
      <translation>{repo}：Hub 没有给出 {name} 的 ETag 或大小，无法校验下载</translation>
    </message>
    <message>
      <source>{repo}: {name} stopped at {got} of {size} bytes; run again to resume</source>
      <translation>{repo}：{name} 停在 {got} / {size} 字节处；再试一次即可续传</translation>
    </message>
    <message>
      <source>{repo}: {name} arrived damaged (its SHA-256 is not the Hub's); it was removed, run again to download it afresh</source>
      <translation>{repo}：{name} 下载后已损坏（SHA-256 与 Hub 的不符）；已将其删除，再试一次即可重新下载</translation>
    </message>
    <message>
      <source>download cancelled; run again to resume where it stopped</source>
      <translation>下载已取消；再试一次即可从中断处续传</translation>
    </message>
    <message>
      <source>{text} is not a Hub repository id (owner/name, e.g. Helsinki-NLP/opus-mt-en-zh)</source>
      <translation>{text} 不是 Hub 仓库名（应为 owner/name 的形式，例如 Helsinki-NLP/opus-mt-en-zh）</translation>
    </message>
    <message>
      <source>Unexpected error: {reason}</source>
      <translation>意外错误：{reason}</translation>
    </message>
    <message>
      <source>{done} of {total} · {speed}/s · {eta} left</source>
      <translation>{done} / {total} · {speed}/s · 还剩 {eta}</translation>
    </message>
    <message>
      <source>{done} of {total}</source>
      <translation>{done} / {total}</translation>
    </message>
    <message>
      <source>q · k_j  (not divided by √d_k)</source>
      <translation>q · k_j  （不除以 √d_k）</translation>
    </message>
    <message>
      <source>Lessons (*.json);;All files (*)</source>
      <translation>课程 (*.json);;所有文件 (*)</translation>
    </message>
    <message>
      <source>L </source>
      <translation>层 </translation>
    </message>
    <message>
      <source>H </source>
      <translation>头 </translation>
    </message>
    <message>
      <source>Stop this translation: the one shown stays</source>
      <translation>停止这次翻译：显示的译文保留</translation>
    </message>
    <message>
      <source>Translation stopped: the one shown is the sentence before</source>
      <translation>翻译已停止：显示的是上一个句子</translation>
    </message>
    <message>
      <source>{path} holds other files and no run; choose a new or empty folder for the run</source>
      <translation>{path} 中有其他文件，却没有训练运行；请为运行选择一个新的或空的文件夹</translation>
    </message>
    <message>
      <source>{path} names {name}, which is missing; {here}</source>
      <translation>{path} 指向 {name}，但它不存在；{here}</translation>
    </message>
    <message>
      <source>{path} names {name}, which has no {file}; {here}</source>
      <translation>{path} 指向 {name}，但其中没有 {file}；{here}</translation>
    </message>
    <message>
      <source>{path} names {name}, which is not a checkpoint folder inside {run}; {here}</source>
      <translation>{path} 指向 {name}，它不是 {run} 中的检查点文件夹；{here}</translation>
    </message>
    <message>
      <source>{path} is empty; {here}</source>
      <translation>{path} 是空的；{here}</translation>
    </message>
    <message>
      <source>{path}: 'meta' must be an object, got {value}</source>
      <translation>{path}：“meta”必须是一个对象，实际为 {value}</translation>
    </message>
    <message>
      <source>{path}: meta.{field} must be a whole number of at least 0, got {value}</source>
      <translation>{path}：meta.{field} 必须是不小于 0 的整数，实际为 {value}</translation>
    </message>
    <message>
      <source>{path}: meta.elapsed_s must be a number of seconds, got {value}</source>
      <translation>{path}：meta.elapsed_s 必须是秒数，实际为 {value}</translation>
    </message>
    <message>
      <source>{path} does not fit this model: {detail}</source>
      <translation>{path} 与这个模型不匹配：{detail}</translation>
    </message>
    <message>
      <source>{where} is not a training config of this app: it holds no JSON object</source>
      <translation>{where} 不是本应用的训练配置：其中没有 JSON 对象</translation>
    </message>
    <message>
      <source>{where} is not a training config of this app: it has no 'model' section</source>
      <translation>{where} 不是本应用的训练配置：其中没有“model”部分</translation>
    </message>
    <message>
      <source>{where}: 'model' must be an object of the model's sizes, got {value}</source>
      <translation>{where}：“model”必须是描述模型尺寸的对象，实际为 {value}</translation>
    </message>
    <message>
      <source>{where}: stages must be a list of objects, got {value}</source>
      <translation>{where}：stages 必须是对象列表，实际为 {value}</translation>
    </message>
    <message>
      <source>checkpoints here: {names} (and {n} older)</source>
      <translation>此处的检查点：{names}（以及 {n} 个更早的）</translation>
    </message>
    <message>
      <source>checkpoints here: {names}</source>
      <translation>此处的检查点：{names}</translation>
    </message>
    <message>
      <source>the folder holds no checkpoint</source>
      <translation>该文件夹中没有检查点</translation>
    </message>
    <message>
      <source>the training config</source>
      <translation>训练配置</translation>
    </message>
    <message>
      <source>too long for the model: translated in {parts} parts</source>
      <translation>对模型来说太长：分成 {parts} 段翻译</translation>
    </message>
    <message>
      <source>a part of it produced no translation (marked […])</source>
      <translation>其中一段没有译文（以 […] 标出）</translation>
    </message>
    <message>
      <source>Largest zoom for this window's width (×{scale:.2f}): a wider window or full screen allows more, and presentation mode (F5) shows the views larger</source>
      <translation>这是适合当前窗口宽度的最大缩放（×{scale:.2f}）：更宽的窗口或全屏可以放得更大，演示模式（F5）会把视图显示得更大</translation>
    </message>
  </context>
</TS>
