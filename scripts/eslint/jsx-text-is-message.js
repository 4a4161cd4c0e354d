/**
 * Text a person reads, written in JSX, must be a message of the catalogs (docs/decisions/119):
 * JSX text with a letter in it, and the string literals of the attributes that are read out or
 * shown (title, aria-label, placeholder, alt, label...). Names that are the same in every language
 * (Tally, Google, ntfy...) are listed in `allow`.
 */
const READ_ATTRIBUTES = new Set([
  'title',
  'aria-label',
  'aria-description',
  'aria-valuetext',
  'aria-roledescription',
  'placeholder',
  'alt',
  'label',
  'legend',
  'hint',
  'description',
  'question',
]);

const LETTER = /\p{L}/u;

/** The macros whose children are the message itself. */
const MESSAGE_ELEMENTS = new Set(['Trans', 'Plural', 'Select', 'SelectOrdinal']);

const insideMessage = (node) => {
  for (let parent = node.parent; parent; parent = parent.parent) {
    if (parent.type === 'JSXElement' && MESSAGE_ELEMENTS.has(parent.openingElement.name.name)) {
      return true;
    }
  }
  return false;
};

export default {
  meta: {
    type: 'problem',
    docs: {
      description: 'Text read by a person in JSX is a message (Trans, t`...`), not a literal',
    },
    schema: [
      {
        type: 'object',
        properties: { allow: { type: 'array', items: { type: 'string' } } },
        additionalProperties: false,
      },
    ],
    messages: {
      text: 'Text "{{text}}" is not a message: wrap it in <Trans> (or t`...`) so it is translated.',
    },
  },
  create(context) {
    const allow = new Set(context.options[0]?.allow ?? []);
    const check = (node, raw) => {
      const text = raw.trim();
      if (!text || !LETTER.test(text) || allow.has(text)) return;
      context.report({ node, messageId: 'text', data: { text: text.slice(0, 40) } });
    };
    return {
      JSXText(node) {
        if (!insideMessage(node)) check(node, node.value);
      },
      JSXAttribute(node) {
        const name = typeof node.name.name === 'string' ? node.name.name : '';
        if (!READ_ATTRIBUTES.has(name) || !node.value) return;
        if (node.value.type === 'Literal' && typeof node.value.value === 'string') {
          check(node.value, node.value.value);
        } else if (
          node.value.type === 'JSXExpressionContainer' &&
          node.value.expression.type === 'Literal' &&
          typeof node.value.expression.value === 'string'
        ) {
          check(node.value, node.value.expression.value);
        } else if (
          node.value.type === 'JSXExpressionContainer' &&
          node.value.expression.type === 'TemplateLiteral' &&
          node.value.expression.quasis.some((quasi) => LETTER.test(quasi.value.cooked ?? ''))
        ) {
          check(node.value, node.value.expression.quasis.map((q) => q.value.cooked).join('…'));
        }
      },
      // A string literal as a JSX child: {'Loading...'}.
      'JSXExpressionContainer > Literal'(node) {
        if (node.parent.parent?.type === 'JSXAttribute' || insideMessage(node)) return;
        if (typeof node.value === 'string') check(node, node.value);
      },
    };
  },
};
