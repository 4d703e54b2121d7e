// The one reader of YAML for the product: custom and managed schemas, detections and their unit tests, bulk
// uploads and the command-line tool. YAML 1.2 core schema, so on/off/yes/no and timestamps stay strings;
// one document per text; duplicate keys are errors.
//
// Aliases are refused: nothing a person writes here needs them, and a kilobyte of nested aliases expands
// into gigabytes once read (the "billion laughs"), in the reader and in everything the value is handed to.
// Only the managed schemas shipped with the product, written by us, may use them.
import { LineCounter, parseDocument, visit } from 'yaml';

export const ALIASES_NOT_ALLOWED = 'YAML aliases are not allowed';

/** A text that is not a YAML document this reader accepts, with where the problem starts (1-based). */
export class YamlError extends Error {
  constructor(
    readonly reason: string,
    readonly line: number,
    readonly column: number,
  ) {
    super(`${reason} (line ${line}, column ${column})`);
    this.name = 'YamlError';
  }
}

export interface ReadYamlOptions {
  /** Resolve aliases (for the product's own documents only). */
  readonly aliases?: boolean;
}

/** The value of a YAML document (null when the text is empty); throws a YamlError. */
export function readYaml(text: string, options: ReadYamlOptions = {}): unknown {
  const lines = new LineCounter();
  const document = parseDocument(text, { schema: 'core', lineCounter: lines, prettyErrors: false });
  const fail = (reason: string, offset: number): never => {
    const { line, col } = lines.linePos(offset);
    throw new YamlError(reason, line, col);
  };
  const [error] = document.errors;
  if (error) fail(error.message, error.pos[0]);
  // An alias is written `*name`: a text without `*` has none, and skips the walk over every node.
  if (!options.aliases && text.includes('*'))
    visit(document, {
      Alias: (_key, node) => fail(ALIASES_NOT_ALLOWED, node.range?.[0] ?? 0),
    });
  return document.toJS();
}
