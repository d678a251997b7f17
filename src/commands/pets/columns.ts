import type { Pet } from '../../core/types.js';
import type { CellTone, Column } from '../../output/render.js';

const STATUS_TONES: Record<string, CellTone> = {
  available: 'good',
  pending: 'warn',
  sold: 'muted',
};

export const PET_COLUMNS: Column<Pet>[] = [
  { header: 'id', value: (pet) => pet.id },
  { header: 'name', value: (pet) => pet.name },
  { header: 'categoryId', value: (pet) => pet.categoryId },
  {
    header: 'status',
    value: (pet) => pet.status,
    tone: (pet) => (pet.status === undefined ? undefined : STATUS_TONES[pet.status]),
  },
];
