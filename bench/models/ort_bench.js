// The ONNX Runtime side of bench/models/model_bench.py: runs one ONNX file with ORT's CPU provider (2
// intra-op threads, all graph optimisations) on the given input and prints one JSON line with the
// per-run times in milliseconds.
//
//   node ort_bench.js MODEL.onnx INPUT.bin D0,D1,... RUNS WARMUP
'use strict';
const fs = require('fs');
const ort = require('onnxruntime-node');

async function main() {
  const [model, input, dimsArg, runsArg, warmArg] = process.argv.slice(2);
  const dims = dimsArg.split(',').map(Number);
  const raw = fs.readFileSync(input);
  const data = new Float32Array(raw.buffer, raw.byteOffset, raw.byteLength / 4);
  const session = await ort.InferenceSession.create(model, {
    intraOpNumThreads: 2,
    interOpNumThreads: 1,
    graphOptimizationLevel: 'all',
    executionMode: 'sequential',
  });
  const feeds = {[session.inputNames[0]]: new ort.Tensor('float32', data, dims)};
  for (let i = 0; i < Number(warmArg); ++i) await session.run(feeds);
  const ms = [];
  for (let i = 0; i < Number(runsArg); ++i) {
    const t0 = process.hrtime.bigint();
    await session.run(feeds);
    ms.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  console.log(JSON.stringify({ms}));
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
