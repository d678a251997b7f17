import type { Pet } from '../../core/interface.js';
import type { CellTone, Column } from '../../output/render.js';

const STATUS_TONES: Record<string, CellTone> = {
  available: 'good',
  pending: 'warn',
  sold: 'muted',
};

export const PET_COLUMNS: Column<Pet>[] = [
  { header: 'id', value: (pet) => pet.id },
  { header: 'name', value: (pet) => pet.name, shrinkable: true },
  { header: 'categoryId', value: (pet) => pet.categoryId },
  {
    header: 'status',
    value: (pet) => pet.status,
    placeholder: '-',
    tone: (pet) => (pet.status === undefined ? undefined : STATUS_TONES[pet.status]),
  },
];

/** What --fields can name for a pet. */
export const PET_FIELDS = PET_COLUMNS.map((column) => column.header);
