/**
 * Copies of a served KutuLeafNet graph for the pointing map (docs/decisions/0039): finer `cam` outputs with
 * the same answer (withDenseCam), or an input of any size (withAnySize). The protobuf is onnx-proto.ts.
 */
import {
  bytes,
  type Field,
  lenField,
  parse,
  readGraph,
  readVarint,
  serialize,
  strings,
  varField,
  writeGraph,
} from './onnx-proto.ts';

const int64Tensor = (name: string, values: number[]) => {
  const raw = Buffer.alloc(values.length * 8);
  for (const [i, v] of values.entries()) raw.writeBigInt64LE(BigInt(v), i * 8);
  return lenField(
    5,
    serialize([varField(1, values.length), varField(2, 7), lenField(8, bytes(name)), lenField(9, raw)]),
  );
};

function attributeInts(node: Field[], name: string): number[] | null {
  for (const f of node.filter((x) => x.no === 5)) {
    const a = parse(f.data);
    if (strings(a, 1)[0] !== name) continue;
    const ints: number[] = [];
    for (const x of a.filter((y) => y.no === 8)) {
      if (x.wire === 0) ints.push(Number(readVarint(x.data, 0)[0]));
      else
        for (let pos = 0; pos < x.data.length; ) {
          const [v, next] = readVarint(x.data, pos);
          ints.push(Number(v));
          pos = next;
        }
    }
    return ints;
  }
  return null;
}

/** A node's fields with an INTS attribute set (replaced, or added when missing). */
function withInts(node: Field[], name: string, values: number[]): Field[] {
  const attr = lenField(
    5,
    serialize([lenField(1, bytes(name)), varField(20, 7), ...values.map((v) => varField(8, v))]),
  );
  const at = node.findIndex((f) => f.no === 5 && strings(parse(f.data), 1)[0] === name);
  if (at >= 0) return node.map((f, i) => (i === at ? attr : f));
  return [...node, attr];
}

/** A node's fields with input number `k` renamed. */
function withInput(node: Field[], k: number, name: string): Field[] {
  let seen = -1;
  return node.map((f) => (f.no === 1 && ++seen === k ? lenField(1, bytes(name)) : f));
}

/**
 * A copy of a MobileNetV2 KutuLeafNet (or its int8 copy) whose `cam` outputs are 2^levels times finer (a
 * 160 px input: 10×10 for 1, 20×20 for 2) with the same logits and ood score (docs/decisions/0039).
 *
 * The last `levels` stride-2 3×3 convolutions run with stride 1, and every 3×3 convolution after them is
 * dilated by the product of the strides removed (the "à trous" algorithm): the finer feature map holds the
 * original one at every 2^levels-th cell, and the cells between are the same network centred half (or a
 * quarter of) a cell further on. The global means (logits and the ood score's pooled features) read that
 * original subgrid only (a strided Slice), so the answer does not change. Padding is explicit Pad nodes in
 * these graphs (Keras-style: bottom/right only for stride 2); their amounts are replaced to match.
 */
export function withDenseCam(file: Uint8Array, levels: 1 | 2): Uint8Array {
  const g = readGraph(file);
  const nodeFields = g.graph.map((f) => (f.no === 1 ? parse(f.data) : null));
  const info = nodeFields.map((n) =>
    n ? { op: strings(n, 4)[0] ?? '', inputs: strings(n, 1), outputs: strings(n, 2) } : null,
  );
  const producerIndex = new Map<string, number>();
  for (const [i, n] of info.entries()) for (const o of n?.outputs ?? []) producerIndex.set(o, i);
  const isConv3 = (i: number) =>
    info[i]?.op.endsWith('Conv') && attributeInts(nodeFields[i]!, 'kernel_shape')?.join() === '3,3';
  const convs = info.map((_, i) => i).filter((i) => isConv3(i));
  const strided = convs.filter((i) => attributeInts(nodeFields[i]!, 'strides')?.join() === '2,2');
  if (strided.length < levels + 1) throw new Error('not a MobileNetV2 graph: too few stride-2 convolutions');
  const converted = new Set(strided.slice(-levels));
  const added: Field[] = [];
  const replaced = new Map<number, Field[]>();
  let d = 1;
  for (const i of convs) {
    if (!converted.has(i) && d === 1) continue;
    // The explicit padding in front of the convolution (possibly behind a QuantizeLinear/DequantizeLinear pair).
    let p = producerIndex.get(info[i]!.inputs[0]);
    while (p !== undefined && info[p]?.op !== 'Pad') p = producerIndex.get(info[p]!.inputs[0]);
    if (p === undefined) throw new Error('a 3×3 convolution without an explicit Pad in front of it');
    const padName = `dense_cam_pads_${i}`;
    const pads = converted.has(i) ? [0, 0, 0, 0, 0, 0, 2 * d, 2 * d] : [0, 0, d, d, 0, 0, d, d];
    added.push(int64Tensor(padName, pads));
    replaced.set(p, withInput(replaced.get(p) ?? nodeFields[p]!, 1, padName));
    let conv = withInts(nodeFields[i]!, 'dilations', [d, d]);
    if (converted.has(i)) {
      conv = withInts(conv, 'strides', [1, 1]);
      d *= 2;
    }
    replaced.set(i, conv);
  }
  const step = 2 ** levels;
  added.push(
    int64Tensor('dense_cam_starts', [0, 0]),
    int64Tensor('dense_cam_ends', [2 ** 31 - 1, 2 ** 31 - 1]),
    int64Tensor('dense_cam_axes', [2, 3]),
    int64Tensor('dense_cam_steps', [step, step]),
  );
  const slices: Field[] = [];
  info.forEach((n, i) => {
    if (n?.op !== 'ReduceMean' || attributeInts(nodeFields[i]!, 'axes')?.join() !== '2,3') return;
    const sub = `${n.inputs[0]}_every_${step}`;
    slices.push(
      lenField(
        1,
        serialize([
          ...[n.inputs[0], 'dense_cam_starts', 'dense_cam_ends', 'dense_cam_axes', 'dense_cam_steps'].map((x) =>
            lenField(1, bytes(x)),
          ),
          lenField(2, bytes(sub)),
          lenField(3, bytes(`dense_cam_slice_${i}`)),
          lenField(4, bytes('Slice')),
        ]),
      ),
    );
    replaced.set(i, withInput(replaced.get(i) ?? nodeFields[i]!, 0, sub));
  });
  // The cam outputs' shapes change: declare them as float tensors of unknown shape.
  const camType = serialize([lenField(1, serialize([varField(1, 1)]))]);
  const graph: Field[] = [];
  g.graph.forEach((f, i) => {
    if (f.no === 1 && replaced.has(i)) graph.push(lenField(1, serialize(replaced.get(i)!)));
    else if (f.no === 12 && strings(parse(f.data), 1)[0]?.startsWith('cam')) {
      graph.push(
        lenField(12, serialize([lenField(1, parse(f.data).find((x) => x.no === 1)!.data), lenField(2, camType)])),
      );
    } else graph.push(f);
  });
  // Slices go in front of the first ReduceMean they feed (nodes must stay in topological order): before
  // the first node that reads one, which comes after every producer of their inputs.
  const firstMean = graph.findIndex((f, i) => f.no === 1 && info[i]?.op === 'ReduceMean' && replaced.has(i));
  graph.splice(firstMean, 0, ...slices);
  const lastInit = graph.findLastIndex((f) => f.no === 5);
  graph.splice(lastInit + 1, 0, ...added);
  return writeGraph(g, graph);
}

/**
 * A copy of a model whose input and cam outputs have no fixed shape, so the fully convolutional part runs
 * on a larger picture than it was exported for (the map of a zoomed-in photo; docs/decisions/0039).
 */
export function withAnySize(file: Uint8Array): Uint8Array {
  const g = readGraph(file);
  const floatType = serialize([lenField(1, serialize([varField(1, 1)]))]);
  const free = (f: Field) =>
    lenField(f.no, serialize([lenField(1, parse(f.data).find((x) => x.no === 1)!.data), lenField(2, floatType)]));
  const graph = g.graph.map((f) => {
    if (f.no === 11) return free(f);
    if (f.no === 12 && strings(parse(f.data), 1)[0]?.startsWith('cam')) return free(f);
    return f;
  });
  return writeGraph(g, graph);
}
