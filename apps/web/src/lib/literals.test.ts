import fs from 'node:fs';
import path from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

/**
 * No words a user reads are written into a component: each must come from locales/en.json through
 * t(), or it stays English in Kiswahili and Luganda. Every component (.tsx outside tests) is parsed
 * and its JSX text, string children and user-facing string props are checked for letters.
 */
const srcDir = path.join(import.meta.dirname, '..');

/** Props whose text is shown or read aloud. */
const userFacingProps = new Set([
  'label',
  'placeholder',
  'title',
  'alt',
  'description',
  'error',
  'message',
  'caption',
  'tooltip',
  'nothingFoundMessage',
  'confirmLabel',
  'cancelLabel',
  'closeButtonLabel',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'aria-placeholder',
]);

/** Words that are the same in every language: the brand and each language's own name. */
const allowed = new Set(['Kutu', 'English', 'Kiswahili', 'Luganda']);

/** A URL's start as a placeholder ("https://") is an example address, not a word. */
const notWords = /^https?:\/\/$/;
/**
 * Legal text translated as a whole document per language, not string by string (TermsPage says why);
 * terms.test.tsx checks that every language's document has the same parts.
 */
const documents = new Set(
  ['TermsEn.tsx', 'TermsSw.tsx', 'TermsLg.tsx'].map((file) => path.join('features', 'static', 'terms', file)),
);

/**
 * Files whose errors never reach a screen: geoip.ts (PhoneInput logs them), i18n.ts (i18next takes them),
 * language.ts (a language that fails to load leaves the screen as it is).
 */
const internalErrors = new Set([
  path.join('components', 'PhoneInput', 'geoip.ts'),
  path.join('lib', 'i18n.ts'),
  path.join('lib', 'language.ts'),
  // The voice's failures reach the Listen button and the recording screen, which say them in their own words.
  path.join('lib', 'voice', 'engine.ts'),
  path.join('lib', 'voice', 'pack.ts'),
  path.join('lib', 'voice', 'voice.worker.ts'),
  path.join('features', 'voice', 'api', 'voice.ts'),
]);
/** Errors whose message is shown to the user, and which argument holds it. */
const errorMessageAt: Record<string, number> = { Error: 0, ApiError: 2 };

const hasLetters = (text: string) => /\p{L}/u.test(text);

export interface Literal {
  file: string;
  line: number;
  text: string;
}

export function findLiterals(file: string, source: string): Literal[] {
  const sf = ts.createSourceFile(
    file,
    source,
    ts.ScriptTarget.Latest,
    true,
    file.endsWith('.tsx') ? ts.ScriptKind.TSX : ts.ScriptKind.TS,
  );
  const found: Literal[] = [];
  const report = (node: ts.Node, raw: string) => {
    const text = raw.replace(/\s+/g, ' ').trim();
    if (!hasLetters(text) || allowed.has(text) || notWords.test(text)) return;
    found.push({ file, line: sf.getLineAndCharacterOfPosition(node.getStart(sf)).line + 1, text });
  };
  /** The literal strings an expression can evaluate to: 'a', cond ? 'a' : 'b', x ?? 'a', `a ${b}`. */
  const strings = (expr: ts.Expression | undefined): ts.Node[] => {
    if (!expr) return [];
    if (ts.isStringLiteral(expr) || ts.isNoSubstitutionTemplateLiteral(expr)) return [expr];
    if (ts.isTemplateExpression(expr)) return [expr.head, ...expr.templateSpans.map((s) => s.literal)];
    if (ts.isParenthesizedExpression(expr)) return strings(expr.expression);
    if (ts.isConditionalExpression(expr)) return [...strings(expr.whenTrue), ...strings(expr.whenFalse)];
    if (ts.isBinaryExpression(expr)) {
      const op = expr.operatorToken.kind;
      if (op === ts.SyntaxKind.QuestionQuestionToken || op === ts.SyntaxKind.BarBarToken) return strings(expr.right);
      if (op === ts.SyntaxKind.AmpersandAmpersandToken) return strings(expr.right);
      if (op === ts.SyntaxKind.PlusToken) return [...strings(expr.left), ...strings(expr.right)];
    }
    return [];
  };
  const textOf = (node: ts.Node) =>
    ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateLiteralToken(node)
      ? node.text
      : '';
  const visit = (node: ts.Node) => {
    if (ts.isJsxText(node)) report(node, node.text);
    else if (ts.isJsxExpression(node) && node.parent && !ts.isJsxAttribute(node.parent)) {
      for (const s of strings(node.expression)) report(s, textOf(s));
    } else if (ts.isJsxAttribute(node) && userFacingProps.has(node.name.getText(sf))) {
      const init = node.initializer;
      if (init && ts.isStringLiteral(init)) report(init, init.text);
      else if (init && ts.isJsxExpression(init)) for (const s of strings(init.expression)) report(s, textOf(s));
    } else if (ts.isPropertyAssignment(node) && userFacingProps.has(node.name.getText(sf).replace(/['"]/g, ''))) {
      // Props built as objects: { label: 'Maize' } in a Select's data, notification options, etc.
      for (const s of strings(node.initializer)) report(s, textOf(s));
    } else if (
      ts.isNewExpression(node) &&
      errorMessageAt[node.expression.getText(sf)] !== undefined &&
      !internalErrors.has(file)
    ) {
      // An error's message ends up in a toast or beside a field.
      for (const s of strings(node.arguments?.[errorMessageAt[node.expression.getText(sf)]])) report(s, textOf(s));
    }
    ts.forEachChild(node, visit);
  };
  visit(sf);
  return found;
}

function components(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'test' ? [] : components(full);
    return /\.tsx?$/.test(entry.name) && !entry.name.includes('.test.') ? [full] : [];
  });
}

describe('no user-visible literal in components', () => {
  it('every component and hook under src takes its words from en.json', () => {
    const files = components(srcDir).filter((file) => !documents.has(path.relative(srcDir, file)));
    expect(files.length).toBeGreaterThan(50);
    const literals = files.flatMap((file) =>
      findLiterals(path.relative(srcDir, file), fs.readFileSync(file, 'utf8')).map(
        (l) => `${l.file}:${l.line} ${JSON.stringify(l.text)}`,
      ),
    );
    expect(literals).toEqual([]);
  });

  it('finds JSX text, string children and user-facing props, and lets symbols, the brand and t() through', () => {
    const source = `
      export const A = () => (
        <Stack title="Weather">
          <Text>Upload a photo</Text>
          <Text>{t('a.b')} · {'—'} Kutu</Text>
          <Button aria-label={open ? 'Close' : t('x')} data-testid="plain-id" variant="light">{'Save'}</Button>
          <Input placeholder={\`Search \${n}\`} label={t('y')} alt="" data={[{ value: 'm', label: 'Maize' }]} />
        </Stack>
      );
      if (!ok) throw new ApiError(500, 'HTTP_ERROR', 'Download failed');
      if (!ctx) throw new Error('No canvas');
      if (!key) throw new Error(t('z'));`;
    expect(findLiterals('x.tsx', source).map((l) => l.text)).toEqual([
      'Weather',
      'Upload a photo',
      'Close',
      'Save',
      'Search',
      'Maize',
      'Download failed',
      'No canvas',
    ]);
  });
});
