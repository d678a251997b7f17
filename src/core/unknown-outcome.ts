/** What a write that got no answer may have done, and how to find out. */
export interface UnknownOutcome {
  what: string;
  hint: string;
}

export const UNKNOWN_PET_OUTCOME: UnknownOutcome = {
  what: 'the pet may or may not have been created',
  hint: 'Check before adding it again: petstore pets list (a pet added twice cannot be undone).',
};

export const UNKNOWN_MESSAGE_OUTCOME: UnknownOutcome = {
  what: 'the message may or may not have been queued',
  hint: 'Sending it again may deliver it twice.',
};
