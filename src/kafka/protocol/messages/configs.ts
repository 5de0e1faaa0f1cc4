// Configuration of resources (resource type 2 topic, 4 broker). DescribeConfigs (API key 32), versions 1-4,
// flexible from 4: a null key list asks for every config; v1 adds synonyms and each config's source, v3 its type
// and documentation. AlterConfigs (33), versions 0-2, flexible from 2: replaces a resource's whole set of
// overrides. IncrementalAlterConfigs (44), versions 0-1, flexible from 1: per config an operation (0 set,
// 1 delete, 2 append, 3 subtract).
import { array, bool, defineApi, int16, int32, int8, scalars, string } from '../schema.js';

export const describeConfigs = defineApi({
  name: 'DescribeConfigs',
  apiKey: 32,
  versions: '1-4',
  flexible: '4+',
  request: [
    array('resources', '0+', [
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      scalars('configurationKeys', 'string', '0+', { nullable: '0+' }),
    ]),
    bool('includeSynonyms', '1+', { default: false }),
    bool('includeDocumentation', '3+', { default: false }),
  ],
  response: [
    int32('throttleTimeMs', '0+'),
    array('results', '0+', [
      int16('errorCode', '0+'),
      string('errorMessage', '0+', { nullable: '0+' }),
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      array('configs', '0+', [
        string('name', '0+'),
        string('value', '0+', { nullable: '0+' }),
        bool('readOnly', '0+'),
        int8('configSource', '1+', { default: -1, ignorable: true }),
        bool('isSensitive', '0+'),
        array(
          'synonyms',
          '1+',
          [string('name', '1+'), string('value', '1+', { nullable: '0+' }), int8('source', '1+')],
          {
            ignorable: true,
          },
        ),
        int8('configType', '3+', { default: 0, ignorable: true }),
        string('documentation', '3+', { nullable: '0+', ignorable: true }),
      ]),
    ]),
  ],
});

const alterConfigsResults = [
  int32('throttleTimeMs', '0+'),
  array('responses', '0+', [
    int16('errorCode', '0+'),
    string('errorMessage', '0+', { nullable: '0+' }),
    int8('resourceType', '0+'),
    string('resourceName', '0+'),
  ]),
] as const;

export const alterConfigs = defineApi({
  name: 'AlterConfigs',
  apiKey: 33,
  versions: '0-2',
  flexible: '2+',
  request: [
    array('resources', '0+', [
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      array('configs', '0+', [string('name', '0+'), string('value', '0+', { nullable: '0+' })]),
    ]),
    bool('validateOnly', '0+'),
  ],
  response: alterConfigsResults,
});

export const incrementalAlterConfigs = defineApi({
  name: 'IncrementalAlterConfigs',
  apiKey: 44,
  versions: '0-1',
  flexible: '1+',
  request: [
    array('resources', '0+', [
      int8('resourceType', '0+'),
      string('resourceName', '0+'),
      array('configs', '0+', [
        string('name', '0+'),
        int8('configOperation', '0+'),
        string('value', '0+', { nullable: '0+' }),
      ]),
    ]),
    bool('validateOnly', '0+'),
  ],
  response: alterConfigsResults,
});
