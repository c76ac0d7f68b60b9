/**
 * The head of a served KutuLeafNet, without Python (docs/decisions/0029): find the head's tensors in
 * model.onnx (`logits`, `cam`, `ood` outputs; see trainer/leafnet.py), read them, write new values into a
 * copy, and expose the pooled 1,280 features (the backbone's output averaged over the feature map) as an
 * extra output for feature extraction. The protobuf reading and writing is onnx-proto.ts.
 */
import {
  bytes,
  type Field,
  type Graph,
  lenField,
  parse,
  readGraph,
  readVarint,
  serialize,
  strings,
  varField,
  writeGraph,
} from './onnx-proto.ts';

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
