/** Decodes datasets/rust3, the negatives and the non-leaf test photos at 128 px (served pipeline) into DIR. Run from the repo root. */
import { listImagesRecursive, listLabelledImages } from '../../src/index.ts';
import { prepareSet } from '../../src/prepare.ts';
const dir = process.argv[2];
await prepareSet(dir, 'leaves', listLabelledImages('datasets/rust3'), 128);
await prepareSet(
  dir,
  'nonleaf',
  listImagesRecursive('packages/vision/negatives').map((file) => ({ file, label: 'not_leaf' })),
  128,
);
await prepareSet(
  dir,
  'fixtures_nonleaf',
  listImagesRecursive('packages/vision/test/fixtures/nonleaf').map((file) => ({ file, label: 'not_leaf' })),
  128,
);
