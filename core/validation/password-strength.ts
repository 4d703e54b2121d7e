// The strength meter beside every new-password field: a score from 0 to 4 with its label. A password that
// breaks the password rule is at most Weak; one that follows it is scored by an entropy estimate that
// discounts what guessers try first: runs of one character, keyboard and alphabet sequences, common words.
import { checkPassword } from './password';

export type PasswordStrengthScore = 0 | 1 | 2 | 3 | 4;

export interface PasswordStrength {
  readonly score: PasswordStrengthScore;
  readonly label: 'Too weak' | 'Weak' | 'Fair' | 'Good' | 'Strong';
  /** Estimated bits of entropy, after the discounts. */
  readonly bits: number;
}

const LABELS: readonly PasswordStrength['label'][] = ['Too weak', 'Weak', 'Fair', 'Good', 'Strong'];

/** Words and keyboard walks that guessers try first (lowercase). */
const COMMON = [
  'password',
  'passw0rd',
  'caracal',
  'qwerty',
  'azerty',
  'letmein',
  'welcome',
  'admin',
  'login',
  'secret',
  'monkey',
  'dragon',
  'iloveyou',
  'security',
  'changeme',
  'summer',
  'winter',
  'spring',
  'autumn',
];
const SEQUENCES = ['abcdefghijklmnopqrstuvwxyz', '01234567890', 'qwertyuiop', 'asdfghjkl', 'zxcvbnm'];

/** Bits needed for each score above Weak: Fair, Good, Strong. */
const FAIR_BITS = 40;
const GOOD_BITS = 60;
const STRONG_BITS = 80;

function poolSize(password: string): number {
  let pool = 0;
  if (/[a-z]/.test(password)) pool += 26;
  if (/[A-Z]/.test(password)) pool += 26;
  if (/[0-9]/.test(password)) pool += 10;
  if (/[^A-Za-z0-9]/.test(password)) pool += 33;
  return pool;
}

/** How many characters are predictable: the 2nd and later of a run, or of an ascending/descending sequence. */
function predictableCharacters(characters: readonly string[]): number {
  let predictable = 0;
  for (let i = 1; i < characters.length; i++) {
    const previous = characters[i - 1].toLowerCase();
    const current = characters[i].toLowerCase();
    const inSequence = SEQUENCES.some((sequence) => {
      const at = sequence.indexOf(previous);
      return at >= 0 && (sequence[at + 1] === current || (at > 0 && sequence[at - 1] === current));
    });
    if (current === previous || inSequence) predictable++;
  }
  return predictable;
}

function commonWordCharacters(password: string): number {
  const lower = password.toLowerCase();
  return COMMON.filter((word) => lower.includes(word)).reduce((sum, word) => sum + word.length - 1, 0);
}

/** Scores a password against the rule's minimum length. */
export function passwordStrength(password: string, minLength: number): PasswordStrength {
  const characters = [...password];
  if (characters.length === 0) return { score: 0, label: LABELS[0], bits: 0 };
  const discounted = predictableCharacters(characters) + commonWordCharacters(password);
  const effectiveLength = Math.max(1, characters.length - discounted);
  const bits = Math.round(effectiveLength * Math.log2(Math.max(poolSize(password), 2)));
  const broken = checkPassword(password, minLength).filter((check) => !check.passed).length;
  let score: PasswordStrengthScore;
  if (broken > 0) score = broken > 2 ? 0 : 1;
  else if (bits >= STRONG_BITS) score = 4;
  else if (bits >= GOOD_BITS) score = 3;
  else if (bits >= FAIR_BITS) score = 2;
  else score = 1;
  return { score, label: LABELS[score], bits };
}
