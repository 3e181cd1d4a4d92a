// JSON read into a tree that keeps what JSON.parse forgets and a re-serializer keeps: how each number
// was spelled (100 and 100.0 are one value in JavaScript, an int and a float in Python or PHP) and the
// members' order as written (JSON.parse moves integer-like keys first). Only text JSON.parse accepted
// is read here, so the reader need not report errors; its depth is bounded by the caller.

/** A number as written in the body: "100", "100.0", "1e16". */
export class JsonNumber {
  constructor(readonly lexeme: string) {}

  get value(): number {
    return Number(this.lexeme);
  }

  /** Written with a fraction or an exponent: a float to Python and PHP, whatever its value. */
  get isFloat(): boolean {
    return /[.eE]/.test(this.lexeme);
  }
}

/** An object's members in the order written; a repeated key keeps its first place and its last value, as decoders do. */
export class JsonObject {
  constructor(readonly members: ReadonlyArray<readonly [string, JsonTree]>) {}
}

export type JsonTree = string | boolean | null | JsonNumber | JsonObject | JsonTree[];

const WHITESPACE = /[ \t\n\r]*/y;
const NUMBER = /-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?/y;
const STRING = /"(?:[^"\\]|\\.)*"/y;

class Reader {
  private at = 0;
  constructor(private readonly text: string) {}

  private skip(): void {
    WHITESPACE.lastIndex = this.at;
    WHITESPACE.exec(this.text);
    this.at = WHITESPACE.lastIndex;
  }

  private token(pattern: RegExp): string {
    pattern.lastIndex = this.at;
    const m = pattern.exec(this.text);
    if (m === null) throw new SyntaxError(`unexpected input at ${this.at}`);
    this.at = pattern.lastIndex;
    return m[0];
  }

  private string(): string {
    return JSON.parse(this.token(STRING)) as string;
  }

  value(): JsonTree {
    this.skip();
    const c = this.text[this.at];
    if (c === '{') return this.object();
    if (c === '[') return this.array();
    if (c === '"') return this.string();
    for (const [word, v] of [
      ['true', true],
      ['false', false],
      ['null', null],
    ] as const) {
      if (this.text.startsWith(word, this.at)) {
        this.at += word.length;
        return v;
      }
    }
    return new JsonNumber(this.token(NUMBER));
  }

  private object(): JsonObject {
    this.at++;
    const members: Array<[string, JsonTree]> = [];
    const index = new Map<string, number>();
    this.skip();
    if (this.text[this.at] === '}') {
      this.at++;
      return new JsonObject(members);
    }
    for (;;) {
      this.skip();
      const key = this.string();
      this.skip();
      this.at++; // ':'
      const v = this.value();
      const seen = index.get(key);
      if (seen === undefined) {
        index.set(key, members.length);
        members.push([key, v]);
      } else members[seen] = [key, v];
      this.skip();
      if (this.text[this.at++] === '}') return new JsonObject(members);
    }
  }

  private array(): JsonTree[] {
    this.at++;
    const items: JsonTree[] = [];
    this.skip();
    if (this.text[this.at] === ']') {
      this.at++;
      return items;
    }
    for (;;) {
      items.push(this.value());
      this.skip();
      if (this.text[this.at++] === ']') return items;
    }
  }
}

/** Reads JSON text (already known to parse) into a tree that keeps number spellings and member order. */
export function readJsonTree(text: string): JsonTree {
  return new Reader(text.charCodeAt(0) === 0xfeff ? text.slice(1) : text).value();
}

/** Whether the tree holds an empty object anywhere: what PHP's associative decoding turns into []. */
export function hasEmptyObject(tree: JsonTree): boolean {
  if (tree instanceof JsonObject) return tree.members.length === 0 || tree.members.some(([, v]) => hasEmptyObject(v));
  return Array.isArray(tree) && tree.some(hasEmptyObject);
}

/** Whether any number in the tree satisfies `test`. */
export function someNumber(tree: JsonTree, test: (n: JsonNumber) => boolean): boolean {
  if (tree instanceof JsonNumber) return test(tree);
  if (tree instanceof JsonObject) return tree.members.some(([, v]) => someNumber(v, test));
  return Array.isArray(tree) && tree.some((v) => someNumber(v, test));
}
