import { signatureExampleSchema, type SignatureExample } from '@/domain/profile-draft';
import {
  encodingsOf,
  signatureRecipeSchema,
  timestampFormsOf,
  type SignatureRecipe,
  type TimestampTravel,
} from '@/domain/vms-profile/signature-recipe';
import { findRecipes } from '@/node/signature';

/** The example's problems as one line, or the example. */
export function readSignatureExample(json: unknown): SignatureExample | { problem: string } {
  const parsed = signatureExampleSchema.safeParse(json);
  if (parsed.success) return parsed.data;
  return {
    problem: parsed.error.issues
      .map((issue) =>
        issue.path.length > 0 && !issue.message.startsWith(String(issue.path[0]))
          ? `${issue.path.join('.')}: ${issue.message}`
          : issue.message,
      )
      .join('; '),
  };
}

interface ExampleParts {
  keyHeader: string;
  apiKey: string;
  signatureHeader: string;
  signature: string;
  timestamp: string;
  travel: TimestampTravel;
}

/** Which header is the key, which the signature, and where the timestamp was. */
function partsOf(example: SignatureExample, apiKey: string): ExampleParts | { problem: string } {
  const headers = Object.entries(example.headers).map(
    ([name, value]) => [name.toLowerCase(), value.trim()] as const,
  );
  const keyEntry =
    headers.find(([, value]) => value === apiKey) ?? headers.find(([name]) => /key/.test(name));
  if (!keyEntry) {
    return {
      problem:
        "no header of the example carries the API key (a header named …key…, or holding the connection's key)",
    };
  }
  const signatureEntry = headers.find(
    ([name, value]) => /sign|hmac|hash/.test(name) && encodingsOf(value).length > 0,
  );
  if (!signatureEntry) {
    return {
      problem:
        'no header of the example carries a signature (a header named …sign… holding hex or base64 text)',
    };
  }
  const query = new URLSearchParams(example.path.split('?')[1] ?? '');
  const timeHeader = headers.find(
    ([name, value]) =>
      name !== keyEntry[0] && name !== signatureEntry[0] && timestampFormsOf(value).length > 0,
  );
  const timeParameter = [...query].find(([, value]) => timestampFormsOf(value).length > 0);
  let timestamp = example.timestamp;
  let travel: TimestampTravel = 'none';
  if (timeHeader && (timestamp === undefined || timestamp === timeHeader[1])) {
    timestamp = timeHeader[1];
    travel = { header: timeHeader[0] };
  } else if (timeParameter && (timestamp === undefined || timestamp === timeParameter[1])) {
    timestamp = timeParameter[1];
    travel = { query: timeParameter[0] };
  }
  if (timestamp === undefined) {
    return {
      problem:
        'the example sent no timestamp in a header or the query: give the one signed as "timestamp"',
    };
  }
  return {
    keyHeader: keyEntry[0],
    apiKey: keyEntry[1],
    signatureHeader: signatureEntry[0],
    signature: signatureEntry[1],
    timestamp,
    travel,
  };
}

export interface ExampleRecipes {
  recipes: SignatureRecipe[];
  /** Where each part was found, for the evidence. */
  how: string;
}

/** Every recipe that reproduces the example's signature with the connection's secret. */
export function recipesFromExample(
  example: SignatureExample,
  apiKey: string,
  secret: string,
): ExampleRecipes | { problem: string } {
  const parts = partsOf(example, apiKey);
  if ('problem' in parts) return parts;
  const recipes = findRecipes({
    apiKey: parts.apiKey,
    secret,
    timestamp: parts.timestamp,
    signature: parts.signature,
    body: example.body ?? '',
  }).flatMap((recipe) => {
    const placed = signatureRecipeSchema.safeParse({
      ...recipe,
      keyHeader: parts.keyHeader,
      signatureHeader: parts.signatureHeader,
      timestamp: { form: recipe.timestamp.form, travel: parts.travel },
    });
    return placed.success ? [placed.data] : [];
  });
  const where =
    parts.travel === 'none'
      ? 'the timestamp not sent'
      : 'header' in parts.travel
        ? `the timestamp in the ${parts.travel.header} header`
        : `the timestamp in the ${parts.travel.query} query parameter`;
  return {
    recipes,
    how: `the example's ${parts.signatureHeader} header, with the key in ${parts.keyHeader} and ${where}`,
  };
}
