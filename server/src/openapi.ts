/** The API described in OpenAPI 3.1, served at /api/openapi.json. */
const error = { $ref: '#/components/schemas/Error' };
const json = (schema: object) => ({ content: { 'application/json': { schema } } });
const id = { name: 'id', in: 'path', required: true, schema: { type: 'string' } };
const seat = { name: 'seat', in: 'path', required: true, schema: { type: 'integer', minimum: 0, maximum: 7 } };
const refused = {
  '401': { description: 'secret missing or wrong', ...json(error) },
  '404': { description: 'no such race or seat', ...json(error) },
  '422': { description: 'a field is not what was expected', ...json(error) },
  '429': { description: 'too many requests', ...json(error) },
};

export const OPENAPI = {
  openapi: '3.1.0',
  info: {
    title: 'roborally race server',
    version: '0.1.0',
    description: 'An unofficial RoboRally referee. A seat acts with its secret token (the invite link\'s token) as a Bearer token or ?token=; the race\'s creator moderates with the X-Moderator-Key header. Nobody sees another seat\'s hand or orders before the turn is played.',
  },
  paths: {
    '/api/courses': { get: { summary: 'The courses to race on', responses: { '200': { description: 'courses', ...json({ type: 'array', items: { type: 'object' } }) } } } },
    '/api/courses/{name}': { get: { summary: 'A course, its composed board (`layout`, the board grammar of docs/formats.md) and the course `file` as docs/formats.md gives it', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'course', ...json({ type: 'object' }) }, '404': { description: 'no such course', ...json(error) } } } },
    '/api/courses/{name}/picture.svg': { get: { summary: 'A course drawn as SVG', parameters: [{ name: 'name', in: 'path', required: true, schema: { type: 'string' } }], responses: { '200': { description: 'SVG', content: { 'image/svg+xml': {} } }, '404': { description: 'no such course', ...json(error) } } } },
    '/api/boards': { get: { summary: 'The shipped boards, to compose a course of one\'s own (the course editor): each {name, title, description, board} with the board\'s grammar as its file has it (docs/formats.md)', responses: { '200': { description: 'boards', ...json({ type: 'array', items: { type: 'object' } }) } } } },
    '/api/races': {
      post: {
        summary: 'Create a race and begin its first turn',
        requestBody: { required: true, ...json({ $ref: '#/components/schemas/NewRace' }) },
        responses: { '201': { description: 'the race, its moderator key and each seat\'s invite link', ...json({ type: 'object' }) }, ...refused },
      },
    },
    '/api/races/{id}': { get: { summary: 'What anybody may see of a race', parameters: [id], responses: { '200': { description: 'public view', ...json({ type: 'object' }) }, ...refused } } },
    '/api/races/{id}/seats/{seat}': { get: { summary: 'A seat\'s view: the race, its hand and its orders', parameters: [id, seat], security: [{ seat: [] }], responses: { '200': { description: 'seat view', ...json({ type: 'object' }) }, ...refused } } },
    '/api/races/{id}/seats/{seat}/orders': {
      put: {
        summary: 'Send or replace a seat\'s orders for the current turn',
        parameters: [id, seat],
        security: [{ seat: [] }, { moderator: [] }],
        requestBody: { required: true, ...json({ $ref: '#/components/schemas/Orders' }) },
        responses: { '200': { description: 'the orders as understood', ...json({ type: 'object' }) }, '409': { description: 'the race is over or the turn is being played', ...json(error) }, ...refused },
      },
    },
    '/api/races/{id}/seats/{seat}/recompile': {
      post: {
        summary: 'Recompile: discard the hand for a new one, taking the damage the rule set says (the robot must hold Recompile); orders already sent this turn are withdrawn',
        parameters: [id, seat],
        security: [{ seat: [] }],
        responses: { '200': { description: '{turn, hand}', ...json({ type: 'object' }) }, '409': { description: 'the race is over or the turn is being played', ...json(error) }, ...refused },
      },
    },
    '/api/races/{id}/seats/{seat}/ready': {
      post: {
        summary: 'The seat\'s person has watched or skipped the replay of the turn just played: a live race\'s programming clock starts once every person still racing has, or at the latest at the view\'s clock.startsBy (the replay\'s length and a margin)',
        parameters: [id, seat],
        security: [{ seat: [] }],
        requestBody: { required: true, ...json({ type: 'object', required: ['turn'], additionalProperties: false, properties: { turn: { type: 'integer', description: 'the turn now being programmed' } } }) },
        responses: { '200': { description: '{turn, clockStarted, deadlineAt}', ...json({ type: 'object' }) }, '409': { description: 'the race is over or at another turn', ...json(error) }, ...refused },
      },
    },
    '/api/races/{id}/events': { get: { summary: 'The race\'s events after a sequence number', parameters: [id, { name: 'after', in: 'query', schema: { type: 'integer' } }], responses: { '200': { description: 'entries {seq, turn, kind, event}', ...json({ type: 'array', items: { type: 'object' } }) }, ...refused } } },
    '/api/races/{id}/stream': { get: { summary: 'WebSocket: the entries after ?after=, a page at a time, then each commit\'s entries as they are committed. A frame is a JSON array of entries, {"played": {turn, replay, report}} after a turn played, or {"error"} (docs/server.md)', parameters: [id, { name: 'after', in: 'query', schema: { type: 'integer' } }], responses: { '101': { description: 'switching to WebSocket' } } } },
    '/api/races/{id}/turns/{turn}': { get: { summary: 'A played turn for its replay: the robots as it began (public view) and its events', parameters: [id, { name: 'turn', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: '{turn, robots, events}', ...json({ type: 'object' }) }, ...refused } } },
    '/api/races/{id}/turns/{turn}/report': { get: { summary: 'The report of a played turn: per register, Dmg, Name, Move, Notes', parameters: [id, { name: 'turn', in: 'path', required: true, schema: { type: 'integer' } }, { name: 'format', in: 'query', schema: { enum: ['json', 'text'] } }], responses: { '200': { description: 'report', ...json({ type: 'object' }) }, ...refused } } },
    '/api/races/{id}/turns/{turn}/picture.svg': { get: { summary: 'The floor after a played turn, programmed moves as blue arrows, pushes and belt moves green', parameters: [id, { name: 'turn', in: 'path', required: true, schema: { type: 'integer' } }], responses: { '200': { description: 'SVG', content: { 'image/svg+xml': {} } }, ...refused } } },
    '/api/races/{id}/moderator/{action}': {
      post: {
        summary: 'Moderate: pause, resume, extend ({"seconds"}), replace ({"seat", "level"}) a player by a bot, adjudicate now ({"turn"} optional: only if that turn is still the current one), rewind the last turn',
        parameters: [id, { name: 'action', in: 'path', required: true, schema: { enum: ['pause', 'resume', 'extend', 'replace', 'adjudicate', 'rewind'] } }],
        security: [{ moderator: [] }],
        responses: { '200': { description: 'done', ...json({ type: 'object' }) }, '409': { description: 'not possible now', ...json(error) }, ...refused },
      },
    },
  },
  components: {
    securitySchemes: {
      seat: { type: 'http', scheme: 'bearer', description: 'the seat\'s secret token' },
      moderator: { type: 'apiKey', in: 'header', name: 'X-Moderator-Key' },
    },
    schemas: {
      Error: { type: 'object', properties: { error: { type: 'object', properties: { field: { type: 'string' }, message: { type: 'string' } }, required: ['field', 'message'] } } },
      NewRace: {
        type: 'object',
        required: ['course', 'seats'],
        properties: {
          course: { oneOf: [{ type: 'string', description: 'a shipped course (GET /api/courses)' }, { type: 'object', description: 'a course of the race\'s own, as a course file has it (docs/formats.md), on the shipped boards; validated like a course file, at most 12 boards' }] },
          rules: { enum: ['classic', 'pbem'] },
          settings: { type: 'object', description: 'the settings of docs/rules.md (teams come from the seats)' },
          whenNoPersonLeft: { enum: ['play', 'end'], description: 'once every person\'s robot is out: the bots play the race out at once (play, the default) or the race ends' },
          after: { type: 'object', required: ['race', 'moderatorKey'], properties: { race: { type: 'string' }, moderatorKey: { type: 'string' } }, description: 'the race this one follows in a series (it must be over): the seats are ordered by 001\'s picks from it' },
          seats: { type: 'array', minItems: 1, maxItems: 8, items: { type: 'object', required: ['name'], properties: { name: { type: 'string' }, bot: { enum: ['random', 'greedy', 'strong'] }, dir: { enum: ['N', 'E', 'S', 'W'] }, email: { type: 'string', format: 'email', description: 'the player races by e-mail (docs/mail.md)' },
            player: { type: 'string', description: 'seats with the same player share one invite link' },
            team: { type: 'string', description: 'its team (000 L21): a team wins when the first of its robots finishes' },
            options: { type: 'array', items: { type: 'string' }, description: 'handicap: options held from the start' },
            lives: { type: 'integer', minimum: 1 }, damage: { type: 'integer', minimum: 0 },
            start: { type: 'array', items: { type: 'integer' }, minItems: 2, maxItems: 2, description: 'handicap: a start square of its own' },
            firstTimer: { type: 'boolean', description: 'the Three Minute Rule does not hurry this seat' },
            followWhenOut: { type: 'boolean', description: 'keep receiving the turn mails once its robot is out' } }, additionalProperties: false } },
          deadline: {
            oneOf: [
              { type: 'object', required: ['kind', 'seconds'], properties: { kind: { const: 'live' }, seconds: { type: 'integer', minimum: 5 } } },
              { type: 'object', required: ['kind', 'time'], properties: { kind: { const: 'scheduled' }, time: { type: 'string', pattern: '^\\d\\d:\\d\\d$' }, zone: { type: 'string' }, minimumHours: { type: 'number' } } },
            ],
          },
          seed: { type: 'integer' },
        },
      },
      Orders: {
        type: 'object',
        properties: {
          program: { type: 'array', items: { type: ['string', 'null'] }, description: 'one card per open register ("F2:670" classic, "F2" pbem, the pbem upgrade codes "F0", "F4", "B2"; two joined by + for Crab Legs or Dual Processor: "F1:500+R:80", "F+L"); null leaves a register to the random fill at the deadline' },
          powerDown: { type: 'boolean' }, stayDown: { type: 'boolean' }, takeOption: { type: 'boolean' },
          unlock: { type: 'array', items: { type: 'integer', minimum: 1, maximum: 5 } },
          reenter: { type: 'object', properties: { dir: { enum: ['N', 'E', 'S', 'W'] }, poweredDown: { type: 'boolean' } } },
          facing: { enum: ['N', 'E', 'S', 'W'], description: 'first turn only: the facing the robot starts with (002 L38-39)' },
          choices: { type: 'object', description: 'option decisions, keys as docs/options.md lists them (classic: exchange, lose, shield, gyro, weapon, fireControl, brakes, fourthGear, reverseGear, abort, conditional, flywheel, recompile, chopShop, unlock; pbem: active, circuitBreaker, flywheel); the seat view\'s you.choiceKeys names those of the race' },
        },
      },
    },
  },
} as const;
