import type { MessageDescriptor } from '@lingui/core';
import { msg } from '@lingui/core/macro';

/** The priorities' names in the active language (the contract's PRIORITY_LABELS are English). */
export const PRIORITY_NAMES: readonly [
  MessageDescriptor,
  MessageDescriptor,
  MessageDescriptor,
  MessageDescriptor,
] = [msg`None`, msg`Low`, msg`Medium`, msg`High`];
