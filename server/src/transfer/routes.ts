import {
  accountApi,
  IMPORT_FORMATS,
  IMPORT_MAX_BYTES,
  type ImportFormat,
  transferApi,
} from '@tally/contract';
import multipart from '@fastify/multipart';
import type { FastifyPluginAsync, FastifyRequest } from 'fastify';
import { compressLargeAnswers } from '../plugins/compression.js';
import type { Clock } from '../shared/clock.js';
import { addEndpoint } from '../shared/endpoint.js';
import { AppError, badRequest, notFound } from '../shared/errors.js';
import { timeZoneOf } from '../shared/time-zone.js';
import { todosCsv } from './csv-export.js';
import { exportAccount } from './export.js';
import { createImportHistory } from './import-history.js';
import { createImportService } from './import-service.js';
import { type CsvMapping, parseMapping } from './sources/any-csv.js';
import type { CheckPlanning } from './sources/source.js';

export interface TransferRoutesOptions {
  clock: Clock;
  /** The todo calls' check of a due date, time and repeat (server/src/todos/planning.ts). */
  checkPlanning: CheckPlanning;
}

const MB = IMPORT_MAX_BYTES / (1024 * 1024);
/**
 * Imports per account per minute, previews included: an import parses up to IMPORT_MAX_BYTES
 * and may write thousands of rows, so one account (or a leaked read-write token) may not keep
 * the server busy with them. Counted per account, after authentication, in the shared counters.
 */
const IMPORTS_PER_MINUTE = 20;
const FORMATS = IMPORT_FORMATS.join(', ');

/** The multipart plugin's refusals, as sentences (its own are "reach files limit" and such). */
function formError(error: unknown): unknown {
  switch ((error as { code?: unknown }).code) {
    case 'FST_REQ_FILE_TOO_LARGE':
      return new AppError(413, `The file is larger than ${MB} MB`);
    case 'FST_FILES_LIMIT':
      return badRequest('Send one file at a time');
    case 'FST_PARTS_LIMIT':
    case 'FST_FIELDS_LIMIT':
      return badRequest('The form takes four fields: file, format, dryRun and mapping');
    case 'FST_PROTO_VIOLATION':
      return badRequest('The form has a field name that is not allowed');
    case 'FST_MP_PREMATURE_CLOSE':
      return badRequest('The upload ended before the form was complete');
    default:
      // Ours (a sentence already), or busboy's on a broken form (no boundary, cut short).
      return error instanceof AppError
        ? error
        : badRequest('The request body is not a valid multipart/form-data form');
  }
}

/** The form's three fields, read part by part (contract/src/transfer.ts, ImportBodySchema). */
async function readForm(request: FastifyRequest): Promise<{
  bytes: Buffer;
  format: ImportFormat;
  dryRun: boolean;
  fileName: string | null;
  mapping?: CsvMapping;
}> {
  if (!request.isMultipart()) {
    throw new AppError(415, 'Content-Type must be multipart/form-data (a file upload)');
  }
  let bytes: Buffer | null = null;
  let fileName: string | null = null;
  const fields = new Map<string, string>();
  try {
    for await (const part of request.parts()) {
      if (part.type === 'file') {
        if (part.fieldname !== 'file') {
          part.file.resume();
          throw badRequest(`The file must be sent as the field "file", not "${part.fieldname}"`);
        }
        bytes = await part.toBuffer();
        fileName = part.filename || null;
      } else {
        fields.set(part.fieldname, String(part.value));
      }
    }
  } catch (error) {
    throw formError(error);
  }
  for (const name of fields.keys()) {
    if (name !== 'format' && name !== 'dryRun' && name !== 'mapping') {
      throw badRequest(
        `The form has an unknown field "${name}": it takes file, format, dryRun and mapping`,
      );
    }
  }
  const format = fields.get('format');
  if (format === undefined) throw badRequest(`format is required: one of ${FORMATS}`);
  if (!(IMPORT_FORMATS as readonly string[]).includes(format)) {
    throw badRequest(`format must be one of ${FORMATS}`);
  }
  const dryRun = fields.get('dryRun') ?? 'false';
  if (dryRun !== 'true' && dryRun !== 'false') throw badRequest('dryRun must be true or false');
  const mapping = parseMapping(fields.get('mapping'));
  if (mapping && format !== 'csv') throw badRequest('mapping is for the csv format only');
  if (bytes === null) throw badRequest('file is required: the file to import');
  return {
    bytes,
    format: format as ImportFormat,
    dryRun: dryRun === 'true',
    fileName,
    ...(mapping ? { mapping } : {}),
  };
}

/**
 * Import and export beside the account's JSON export (docs/product.md, Import and export): the
 * todos as CSV, and imports from Tally, Todoist and TickTick files. Multipart is registered
 * here only, so every other route still takes JSON alone.
 */
export const transferRoutes: FastifyPluginAsync<TransferRoutesOptions> = async (app, options) => {
  await compressLargeAnswers(app);
  await app.register(multipart, {
    // fieldSize: the csv format's mapping (contract's ImportBodySchema, at most 2,000 characters).
    limits: { fileSize: IMPORT_MAX_BYTES, files: 1, fields: 3, parts: 4, fieldSize: 2000 },
  });
  const imports = createImportService({
    db: app.db,
    clock: options.clock,
    checkPlanning: options.checkPlanning,
  });
  const history = createImportHistory(app.db, options.clock);

  addEndpoint(app, transferApi.history, async (request) => history.list(request.user.id));

  addEndpoint(app, transferApi.undo, async (request) => {
    const undone = await history.undo(request.user.id, request.params.id);
    if (!undone) throw notFound('Import');
    if (undone.trashedTodos > 0 || undone.deletedGroups > 0) {
      app.live.publish(request.user.id, { type: 'todos.changed' }, request);
    }
    return undone;
  });

  addEndpoint(app, accountApi.export, async (request, reply) => {
    const data = await exportAccount(app.db, options.clock(), request.user.id);
    if (!data) throw notFound('Account');
    const day = data.exportedAt.slice(0, 10);
    void reply.header('content-disposition', `attachment; filename="tally-export-${day}.json"`);
    return data;
  });

  addEndpoint(app, transferApi.exportCsv, async (request, reply) => {
    const csv = await todosCsv(app.db, request.user.id);
    const day = new Date(options.clock()).toISOString().slice(0, 10);
    return reply
      .type('text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="tally-todos-${day}.csv"`)
      .send(csv);
  });

  addEndpoint(
    app,
    transferApi.import,
    async (request) => {
      const form = await readForm(request);
      const report = await imports.run(request.user.id, { ...form, zone: timeZoneOf(request) });
      if (!form.dryRun) {
        if (report.todos.created > 0 || report.groups.some((group) => !group.existing)) {
          app.live.publish(request.user.id, { type: 'todos.changed' }, request);
        }
        if (report.importId !== null) {
          await app.notifications.importEvents(request.user.id, report.importId);
        }
        request.log.info(
          { userId: request.user.id, format: form.format, todos: report.todos.created },
          'Import done',
        );
      }
      return report;
    },
    {
      config: {
        rateLimit: {
          max: IMPORTS_PER_MINUTE,
          timeWindow: '1 minute',
          hook: 'preHandler',
          keyGenerator: (request) => `user:${request.user.id}`,
        },
      },
    },
  );
};
