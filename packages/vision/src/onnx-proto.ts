/**
 * Just enough of the ONNX protobuf format to edit a served KutuLeafNet's graph without Python
 * (onnx-edit.ts, onnx-dense.ts; docs/decisions/0029).
 *
 * Messages are kept as lists of raw fields, so everything an edit does not touch is written back
 * byte for byte. Field numbers are those of onnx.proto (ModelProto.graph = 7, GraphProto.node = 1,
 * initializer = 5, output = 12; NodeProto input = 1, output = 2, op_type = 4; TensorProto dims = 1,
 * data_type = 2, name = 8, raw_data = 9).
 */

export interface Field {
  no: number;
  wire: number;
  /** The payload: a varint's bytes, a fixed field's bytes, or a length-delimited field's content. */
  data: Uint8Array;
}

export function readVarint(buf: Uint8Array, pos: number): [bigint, number] {
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

export function parse(buf: Uint8Array): Field[] {
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

export function serialize(fields: Field[]): Uint8Array {
  const parts: Uint8Array[] = [];
  for (const f of fields) {
    parts.push(varint((f.no << 3) | f.wire));
    if (f.wire === 2) parts.push(varint(f.data.length));
    parts.push(f.data);
  }
  return Buffer.concat(parts);
}

const text = (d: Uint8Array) => Buffer.from(d).toString('utf8');
export const bytes = (s: string) => new Uint8Array(Buffer.from(s, 'utf8'));
export const lenField = (no: number, data: Uint8Array): Field => ({ no, wire: 2, data });
export const varField = (no: number, v: number): Field => ({ no, wire: 0, data: varint(v) });
export const strings = (fields: Field[], no: number) => fields.filter((f) => f.no === no).map((f) => text(f.data));

interface Node {
  op: string;
  inputs: string[];
  outputs: string[];
}

export interface Graph {
  model: Field[];
  graph: Field[];
  nodes: Node[];
  /** Initializer name → its fields. */
  initializers: Map<string, Field[]>;
}

export function readGraph(file: Uint8Array): Graph {
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

export function writeGraph(g: Graph, graph: Field[]): Uint8Array {
  const data = serialize(graph);
  return serialize(g.model.map((f) => (f.no === 7 && f.wire === 2 ? { ...f, data } : f)));
}
