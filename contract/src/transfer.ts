import { Type, type Static } from '@sinclair/typebox';
import {
  CSV_MAPPING_FIELDS,
  IMPORT_FORMATS,
  IMPORT_MAX_BYTES,
  IMPORT_MAX_TODOS,
} from './constants.js';
import { ErrorSchema, IdParamsSchema, withThousands } from './common.js';
import { defineEndpoints } from './endpoint.js';
import { routes } from './routes.js';
import { RepeatSchema } from './todos.js';

/** The columns of GET /api/todos/export.csv, in order (docs/product.md, Import and export). */
export const TODO_CSV_COLUMNS = [
  'id',
  'title',
  'description',
  'group',
  'completed',
  'dueDate',
  'dueTime',
  'repeat',
  'createdAt',
  // The task model's fields (decision 083): tags (space-separated), priority (0-3), the
  // parent's id, the start date.
  'tags',
  'priority',
  'parentId',
  'startDate',
  // A time block's length in minutes (decision 166).
  'durationMinutes',
] as const;

const MB = IMPORT_MAX_BYTES / (1024 * 1024);

/**
 * The form of POST /api/import (multipart/form-data). The server reads the parts itself, so it
 * can answer each problem in a sentence (413 for a file over the limit); this describes them for
 * the API docs and types the web's call, which sends `file` as a File.
 */
export const ImportBodySchema = Type.Object(
  {
    file: Type.Unsafe<Blob>({
      type: 'string',
      format: 'binary',
      description: `The file, at most ${MB} MB and ${withThousands(IMPORT_MAX_TODOS)} todos`,
    }),
    format: Type.Union(
      IMPORT_FORMATS.map((format) => Type.Literal(format)),
      {
        description:
          "tally-json: Tally's export (version 1, 2, 3 or 4); tally-csv: Tally's CSV export; todoist-csv: a Todoist project exported as a " +
          "CSV template; ticktick-csv: TickTick's backup (Settings, Backup & Import); " +
          "google-tasks-json: Google Takeout's Tasks.json; vikunja-zip: Vikunja's export archive " +
          "(a zip holding data.json); ics: an iCalendar file of VTODOs (or Tally's own calendar " +
          'feed); csv: any CSV, its columns mapped to fields by `mapping`',
      },
    ),
    mapping: Type.Optional(
      Type.String({
        maxLength: 2000,
        description:
          'csv only: a JSON object from field (' +
          CSV_MAPPING_FIELDS.join(', ') +
          ') to the header of the column it comes from, e.g. {"title":"Task","dueDate":"Due"}. ' +
          'Without it, columns whose header names a field (or a usual synonym) are taken',
      }),
    ),
    dryRun: Type.Optional(
      Type.Union([Type.Literal('true'), Type.Literal('false')], {
        description:
          'true: change nothing, answer what an import would do (the preview). Default false',
      }),
    ),
  },
  { additionalProperties: false },
);
export type ImportBody = Static<typeof ImportBodySchema>;

const where = {
  line: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
    description: "The file's line where the row starts (CSV); null in a JSON file",
  }),
  where: Type.String({ description: 'The row in words: "line 14", or "todo 3" in a JSON file' }),
};

/** One todo as it is (or would be) imported. */
export const ImportedTodoSchema = Type.Object(
  {
    ...where,
    title: Type.String(),
    group: Type.Union([Type.String(), Type.Null()], { description: 'The name of its group' }),
    completed: Type.Boolean(),
    dueDate: Type.Union([Type.String(), Type.Null()]),
    dueTime: Type.Union([Type.String(), Type.Null()]),
    repeat: Type.Union([RepeatSchema, Type.Null()]),
  },
  { additionalProperties: false },
);
export type ImportedTodo = Static<typeof ImportedTodoSchema>;

/** Which column of a CSV became which field (the `csv` format). */
export const ImportColumnSchema = Type.Object(
  {
    column: Type.String({ description: 'The header of the column, as the file spells it' }),
    field: Type.Union([...CSV_MAPPING_FIELDS.map((field) => Type.Literal(field)), Type.Null()], {
      description: 'The field it became; null: left out',
    }),
  },
  { additionalProperties: false },
);
export type ImportColumn = Static<typeof ImportColumnSchema>;

/** A row left out, and why. */
export const ImportSkipSchema = Type.Object(
  { ...where, reason: Type.String() },
  { additionalProperties: false },
);
export type ImportSkip = Static<typeof ImportSkipSchema>;

/** A row imported with a change (a date not understood, a repeat Tally cannot keep...). */
export const ImportWarningSchema = Type.Object(
  { ...where, message: Type.String() },
  { additionalProperties: false },
);
export type ImportWarning = Static<typeof ImportWarningSchema>;

/** The list of skipped rows and warnings in an answer stops at this many (the counts do not). */
export const IMPORT_REPORT_ROWS = 500;
/** How many of the todos the answer shows (the preview's first rows). */
export const IMPORT_PREVIEW_ROWS = 20;

/** What an import did, or (dry run) would do. */
export const ImportReportSchema = Type.Object(
  {
    format: Type.Union(IMPORT_FORMATS.map((format) => Type.Literal(format))),
    dryRun: Type.Boolean(),
    encoding: Type.String({
      description: 'How the file was read: UTF-8, UTF-16LE, UTF-16BE or Windows-1252',
    }),
    groups: Type.Array(
      Type.Object(
        {
          name: Type.String(),
          color: Type.String({ description: 'One of the 8 swatches' }),
          existing: Type.Boolean({
            description: 'An existing group of the same name (ignoring case); false: created',
          }),
          todos: Type.Integer({ minimum: 0, description: 'How many imported todos go to it' }),
        },
        { additionalProperties: false },
      ),
      { description: 'The groups the imported todos go to, in order of first use' },
    ),
    todos: Type.Object(
      {
        created: Type.Integer({ minimum: 0, description: 'Todos created (would be, dry run)' }),
        completed: Type.Integer({ minimum: 0, description: 'Of those, completed' }),
        withDueDate: Type.Integer({ minimum: 0 }),
        repeating: Type.Integer({ minimum: 0 }),
        alreadyImported: Type.Integer({
          minimum: 0,
          description: 'Left out because an earlier import of the same rows made them',
        }),
      },
      { additionalProperties: false },
    ),
    preview: Type.Array(ImportedTodoSchema, {
      description: `The first ${IMPORT_PREVIEW_ROWS} todos created, in file order`,
    }),
    skipped: Type.Array(ImportSkipSchema, {
      description: `Rows left out, in file order (the first ${IMPORT_REPORT_ROWS})`,
    }),
    skippedCount: Type.Integer({ minimum: 0 }),
    warnings: Type.Array(ImportWarningSchema, {
      description: `Rows imported with a change, in file order (the first ${IMPORT_REPORT_ROWS})`,
    }),
    warningCount: Type.Integer({ minimum: 0 }),
    columns: Type.Optional(
      Type.Array(ImportColumnSchema, {
        description: 'csv only: each column of the file, in order, and the field it became',
      }),
    ),
    importId: Type.Union([Type.Integer({ minimum: 1 }), Type.Null()], {
      description:
        'The import in the history (GET /api/imports), to undo it; null for a preview or an ' +
        'import that created nothing',
    }),
  },
  { additionalProperties: false },
);
export type ImportReport = Static<typeof ImportReportSchema>;

/** One import in the history. */
export const ImportRecordSchema = Type.Object(
  {
    id: Type.Integer({ minimum: 1 }),
    format: Type.Union(IMPORT_FORMATS.map((format) => Type.Literal(format))),
    fileName: Type.Union([Type.String(), Type.Null()], {
      description: 'The name the file was uploaded with',
    }),
    createdAt: Type.String({ format: 'date-time' }),
    todos: Type.Integer({ minimum: 0, description: 'Todos it created' }),
    groups: Type.Integer({ minimum: 0, description: 'Groups it created' }),
    undoneAt: Type.Union([Type.String({ format: 'date-time' }), Type.Null()], {
      description: 'When it was undone; null while its todos are in place',
    }),
  },
  { additionalProperties: false },
);
export type ImportRecord = Static<typeof ImportRecordSchema>;

/** What undoing an import did. */
export const ImportUndoSchema = Type.Object(
  {
    trashedTodos: Type.Integer({ minimum: 0, description: 'Its todos moved to the trash' }),
    deletedGroups: Type.Integer({ minimum: 0, description: 'Its groups deleted (left empty)' }),
    keptTodos: Type.Array(
      Type.Object(
        {
          id: Type.Integer({ minimum: 1 }),
          title: Type.String(),
          reason: Type.String({ description: 'Why it was left alone, in a sentence' }),
        },
        { additionalProperties: false },
      ),
      { description: 'Its todos left in place: edited since, or holding a subtask that was' },
    ),
    keptGroups: Type.Array(
      Type.Object(
        { id: Type.Integer({ minimum: 1 }), name: Type.String() },
        { additionalProperties: false },
      ),
      { description: 'Its groups left in place because they hold other todos' },
    ),
  },
  { additionalProperties: false },
);
export type ImportUndo = Static<typeof ImportUndoSchema>;

export const transferApi = defineEndpoints('import and export', routes.transfer, {
  exportCsv: {
    summary: "The caller's todos as a CSV file, for spreadsheets",
    description:
      `Columns ${TODO_CSV_COLUMNS.join(',')}, oldest first. RFC 4180 (CRLF, quotes doubled), ` +
      'UTF-8 with a byte-order mark; a cell starting with = + - @, a tab or a carriage return ' +
      "is prefixed with ' so spreadsheets do not run it as a formula. Sent as an attachment " +
      'named tally-todos-YYYY-MM-DD.csv.',
    produces: 'text/csv',
    responses: {
      200: Type.String({ description: 'text/csv; charset=utf-8' }),
      401: ErrorSchema,
    },
  },
  import: {
    summary:
      'Import todos and groups from a file: Tally, Todoist, TickTick, Google Tasks, Vikunja, iCalendar or any CSV',
    description:
      'With dryRun=true nothing changes and the answer is the preview. Otherwise everything is ' +
      'created in one transaction, and the answer says what was. Groups are matched by name ' +
      "(ignoring case) within the caller's account or created; ids in the file are never used. " +
      'Importing the same rows again creates nothing new. A file that is not of the format ' +
      `named is a 400 naming the problem; one over ${MB} MB a 413; over ` +
      `${withThousands(IMPORT_MAX_TODOS)} todos a 400.`,
    body: ImportBodySchema,
    responses: {
      200: ImportReportSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      413: ErrorSchema,
      415: ErrorSchema,
    },
  },
  history: {
    summary: "The caller's imports, newest first",
    description: 'Each import that created something, with its counts and whether it was undone.',
    responses: { 200: Type.Array(ImportRecordSchema), 401: ErrorSchema },
  },
  undo: {
    summary: 'Undo an import: its todos to the trash, its groups deleted',
    description:
      'Moves exactly the todos the import created to the trash, but for those edited since ' +
      '(or holding a subtask edited or added since), which are left alone and listed; deletes ' +
      'the groups it created that are then empty. An import undone already is a 409.',
    params: IdParamsSchema,
    responses: {
      200: ImportUndoSchema,
      400: ErrorSchema,
      401: ErrorSchema,
      404: ErrorSchema,
      409: ErrorSchema,
    },
  },
});
