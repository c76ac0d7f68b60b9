/**
 * Just enough of the ONNX protobuf format to retrain a served KutuLeafNet's head without Python
 * (docs/decisions/0029): find the head's tensors in model.onnx (`logits`, `cam`, `ood` outputs; see
 * trainer/leafnet.py), read them, write new values into a copy, and expose the pooled 1,280 features
 * (the backbone's output averaged over the feature map) as an extra output for feature extraction.
 *
 * Messages are kept as lists of raw fields, so everything this file does not touch is written back
 * byte for byte. Field numbers are those of onnx.proto (ModelProto.graph = 7, GraphProto.node = 1,
 * initializer = 5, output = 12; NodeProto input = 1, output = 2, op_type = 4; TensorProto dims = 1,
 * data_type = 2, name = 8, raw_data = 9).
 */

interface Field {
  no: number;
  wire: number;
  /** The payload: a varint's bytes, a fixed field's bytes, or a length-delimited field's content. */
  data: Uint8Array;
}

function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
  let result = 0n;
  let shift = 0n;
  for (;;) {
    if (pos >= buf.length) throw new Error('truncated ONNX file');
    const byte = buf[pos++];
    result |= BigInt(byte & 0x7f) << shift;
    if ((byte & 0x80) === 0) return [result, pos];
    shift += 7n;
  }
}

function varint(value: number | bigint): Uint8Array {
  let v = BigInt(value);
  const out: number[] = [];
  do {
    let byte = Number(v & 0x7fn);
    v >>= 7n;
    if (v > 0n) byte |= 0x80;
    out.push(byte);
  } while (v > 0n);
  return Uint8Array.from(out);
}

function parse(buf: Uint8Array): Field[] {
  const fields: Field[] = [];
  let pos = 0;
  while (pos < buf.length) {
    const [key, afterKey] = readVarint(buf, pos);
    const no = Number(key >> 3n);
    const wire = Number(key & 7n);
    let start = afterKey;
    let end: number;
    if (wire === 0) end = readVarint(buf, start)[1];
    else if (wire === 1) end = start + 8;
    else if (wire === 5) end = start + 4;
    else if (wire === 2) {
      const [len, after] = readVarint(buf, start);
      start = after;
      end = start + Number(len);
    } else throw new Error(`unsupported protobuf wire type ${wire}`);
    if (end > buf.length) throw new Error('truncated ONNX file');
    fields.push({ no, wire, data: buf.subarray(start, end) });
    pos = end;
  }
  return fields;
}

function serialize(fields: Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    parts.push(varint((f.no << 3) | f.wire));
    if (f.wire === 2) parts.push(varint(f.data.length));
    parts.push(f.data);
  }
  return Buffer.concat(parts);
}

const text = (d: Uint8Array) => Buffer.from(d).toString('utf8');
const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
const lenField = (no: number, data: Uint8Array): Field => ({ no, wire: 2, data });
const varField = (no: number, v: number): Field => ({ no, wire: 0, data: varint(v) });
const strings = (fields: Field[], no: number) => fields.filter((f) => f.no === no).map((f) => text(f.data));

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
}

interface Graph {
  model: Field[];
  graph: Field[];
  nodes: Node[];
  /** Initializer name → its fields. */
  initializers: Map<string, Field[]>;
}

function readGraph(file: Uint8Array): Graph {
  const model = parse(file);
  const graphField = model.find((f) => f.no === 7 && f.wire === 2);
  if (!graphField) throw new Error('not an ONNX model (no graph)');
  const graph = parse(graphField.data);
  const nodes = graph
    .filter((f) => f.no === 1)
    .map((f) => {
      const n = parse(f.data);
      return { op: strings(n, 4)[0] ?? '', inputs: strings(n, 1), outputs: strings(n, 2) };
    });
  const initializers = new Map<string, Field[]>();
  for (const f of graph.filter((g) => g.no === 5)) {
    const t = parse(f.data);
    initializers.set(strings(t, 8)[0] ?? '', t);
  }
  return { model, graph, nodes, initializers };
}

function writeGraph(g: Graph, graph: Field[]): Uint8Array {
  const data = serialize(graph);
  return serialize(g.model.map((f) => (f.no === 7 && f.wire === 2 ? { ...f, data } : f)));
}

/** Names of the head's tensors in a served KutuLeafNet graph, found by the graph's shape, not by names. */
interface HeadNames {
  /** Initializer names. */
  weight: string;
  bias: string;
  temperature: string | null;
  oodProjection: string;
  oodMeans: string;
  /** The pooled features (N×C): the ReduceMean of the feature map the head reads. */
  pooled: string;
}

function headNames(g: Graph): HeadNames {
  const producer = (name: string) => g.nodes.find((n) => n.outputs.includes(name));
  const consumers = (name: string, op: string) => g.nodes.filter((n) => n.op === op && n.inputs[0] === name);
  const einsum = g.nodes.find((n) => n.op === 'Einsum' && g.initializers.has(n.inputs[1]));
  const notHead = new Error(
    'This model has no linear head on pooled features (a KutuLeafNet with cam and ood outputs): its head cannot be refitted in Node',
  );
  if (!einsum) throw notHead;
  const add = consumers(einsum.outputs[0], 'Add')[0];
  if (!add || !g.initializers.has(add.inputs[1])) throw notHead;
  const div = consumers(add.outputs[0], 'Div')[0];
  const temperature = div && g.initializers.has(div.inputs[1]) ? div.inputs[1] : null;
  const pooledNode = consumers(einsum.inputs[0], 'ReduceMean')[0];
  if (!pooledNode) throw notHead;
  const unsqueeze = consumers(pooledNode.outputs[0], 'Unsqueeze')[0];
  const sub = unsqueeze && consumers(unsqueeze.outputs[0], 'Sub')[0];
  const matmul = sub && consumers(sub.outputs[0], 'MatMul')[0];
  if (!sub || !matmul || !g.initializers.has(sub.inputs[1]) || !g.initializers.has(matmul.inputs[1])) throw notHead;
  if (producer(einsum.inputs[1])) throw notHead;
  return {
    weight: einsum.inputs[1],
    bias: add.inputs[1],
    temperature,
    oodProjection: matmul.inputs[1],
    oodMeans: sub.inputs[1],
    pooled: pooledNode.outputs[0],
  };
}

function tensorDims(t: Field[]): number[] {
  const dims: number[] = [];
  for (const f of t.filter((x) => x.no === 1)) {
    if (f.wire === 0) dims.push(Number(readVarint(f.data, 0)[0]));
    else {
      // packed
      let pos = 0;
      while (pos < f.data.length) {
        const [v, next] = readVarint(f.data, pos);
        dims.push(Number(v));
        pos = next;
      }
    }
  }
  return dims;
}

function tensorFloats(t: Field[], name: string): Float32Array {
  const type = t.find((f) => f.no === 2);
  if (!type || Number(readVarint(type.data, 0)[0]) !== 1) throw new Error(`${name} is not a float tensor`);
  const raw = t.find((f) => f.no === 9);
  if (!raw) throw new Error(`${name} has no raw data`);
  // Copied: the file's buffer may not be 4-byte aligned.
  const copy = new Uint8Array(raw.data);
  return new Float32Array(copy.buffer, 0, copy.length / 4);
}

/** The head of a served KutuLeafNet, as in its graph (weights not divided by the temperature). */
export interface OnnxHead {
  /** classes × features, row-major. */
  weight: Float32Array;
  bias: Float32Array;
  classes: number;
  features: number;
  temperature: number;
  /** features × k, row-major (the whitened principal directions). */
  oodProjection: Float32Array;
  oodK: number;
  /** leafClasses × features. */
  oodMeans: Float32Array;
  leafClasses: number;
}

export function readOnnxHead(file: Uint8Array): OnnxHead {
  const g = readGraph(file);
  const names = headNames(g);
  const get = (n: string) => g.initializers.get(n)!;
  const weightDims = tensorDims(get(names.weight));
  const projDims = tensorDims(get(names.oodProjection));
  const meansDims = tensorDims(get(names.oodMeans));
  return {
    weight: tensorFloats(get(names.weight), names.weight),
    bias: tensorFloats(get(names.bias), names.bias),
    classes: weightDims[0],
    features: weightDims[1],
    temperature: names.temperature ? tensorFloats(get(names.temperature), names.temperature)[0] : 1,
    oodProjection: tensorFloats(get(names.oodProjection), names.oodProjection),
    oodK: projDims[1],
    oodMeans: tensorFloats(get(names.oodMeans), names.oodMeans),
    leafClasses: meansDims.at(-2) ?? 0,
  };
}

/**
 * A copy of the model with new head values: same graph, same shapes (the ood projection keeps its k,
 * which the graph divides by). The served model's backbone is untouched, byte for byte.
 */
export function withOnnxHead(file: Uint8Array, head: OnnxHead): Uint8Array {
  const g = readGraph(file);
  const names = headNames(g);
  const values = new Map<string, Float32Array>([
    [names.weight, head.weight],
    [names.bias, head.bias],
    [names.oodProjection, head.oodProjection],
    [names.oodMeans, head.oodMeans],
  ]);
  if (names.temperature) values.set(names.temperature, Float32Array.of(head.temperature));
  const graph = g.graph.map((f) => {
    if (f.no !== 5) return f;
    const t = parse(f.data);
    const name = strings(t, 8)[0] ?? '';
    const value = values.get(name);
    if (!value) return f;
    const old = tensorFloats(t, name);
    if (old.length !== value.length) {
      throw new Error(`${name}: ${value.length} values for a tensor of ${old.length}`);
    }
    const raw = new Uint8Array(value.buffer.slice(value.byteOffset, value.byteOffset + value.byteLength));
    return lenField(5, serialize(t.map((x) => (x.no === 9 ? { ...x, data: raw } : x))));
  });
  return writeGraph(g, graph);
}

/**
 * A copy of the model with one more output, `features` (N×C float): the pooled features its head and
 * ood score read. Feature extraction runs this copy with onnxruntime, so the features are those of the
 * served backbone exactly, and no exported backbone (PyTorch) is needed.
 */
export function withFeatureOutput(file: Uint8Array, outputName = 'features'): Uint8Array {
  const g = readGraph(file);
  const names = headNames(g);
  const features = readOnnxHead(file).features;
  const node = serialize([
    lenField(1, bytes(names.pooled)),
    lenField(2, bytes(outputName)),
    lenField(3, bytes(`expose_${outputName}`)),
    lenField(4, bytes('Identity')),
  ]);
  const dim = (d: Field) => lenField(1, serialize([d]));
  const shape = serialize([dim(lenField(2, bytes('batch'))), dim(varField(1, features))]);
  const tensorType = serialize([varField(1, 1), lenField(2, shape)]);
  const valueInfo = serialize([lenField(1, bytes(outputName)), lenField(2, serialize([lenField(1, tensorType)]))]);
  // Nodes first (after the existing ones), outputs after the existing outputs: order within a repeated field.
  const lastNode = g.graph.findLastIndex((f) => f.no === 1);
  const graph = [...g.graph];
  graph.splice(lastNode + 1, 0, lenField(1, node));
  const lastOutput = graph.findLastIndex((f) => f.no === 12);
  graph.splice(lastOutput + 1, 0, lenField(12, valueInfo));
  return writeGraph(g, graph);
}

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
