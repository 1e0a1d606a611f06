// YAML 1.1 readers (PyYAML, older Go and Ruby libraries, some tools of the Kubernetes and compose ecosystems) take
// y, n, yes, no, on and off, in any case, for booleans; YAML 1.2 readers take them for strings. An unquoted
// `GENERATION_WORKER: off` is the string "off" to one tool and false to the next, so such strings are quoted.
import YAML, { LineCounter } from 'yaml';

const YAML_1_1_BOOLEAN = /^(y|n|yes|no|on|off)$/i;

/** One problem per plain (unquoted) scalar of the text that a YAML 1.1 reader would read as a boolean. */
export function unquotedYaml11Booleans(text, where) {
  const lineCounter = new LineCounter();
  const problems = [];
  for (const document of YAML.parseAllDocuments(text, { lineCounter })) {
    YAML.visit(document, {
      Scalar(_key, node) {
        if (node.type !== 'PLAIN' || typeof node.value !== 'string' || !YAML_1_1_BOOLEAN.test(node.value)) return;
        const { line } = lineCounter.linePos(node.range[0]);
        problems.push(
          `${where}:${line}: ${node.value} is unquoted, and a YAML 1.1 reader takes it for a boolean: write '${node.value}'`,
        );
      },
    });
  }
  return problems;
}
