"""A labelled corpus for ``relaykit.redact``: texts that hold a secret (the secret must not survive ``scrub`` or
``fingerprint_secrets``), and ordinary texts that must come back unchanged.

Split by the *format* a secret sits in, not by line: the development families (shell and ``.env`` lines, JSON
configs, HTTP requests, Python code) were used to write and tune the patterns; the held-out families (YAML and
TOML/INI files, container and cloud manifests, log lines, command lines, prose and chat, other languages' code)
were written before any tuning and only scored. Both mix generic passwords and tokens with providers' keys.
``benchmarks/redaction_bench.py`` prints recall and false positives per family; ``tests/test_redact.py`` holds
the development families to no miss and no false positive, and the held-out ones to what they scored.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    family: str
    text: str
    secrets: tuple[str, ...]  # empty: an ordinary text, to come back unchanged


def _s(family: str, text: str, *secrets: str) -> Case:
    return Case(family, text, secrets)


DEV: list[Case] = [
    # shell and .env
    _s("env", "DB_PASSWORD=hunter2horse", "hunter2horse"),
    _s("env", "export GITHUB_TOKEN=abcdef1234567890abcd", "abcdef1234567890abcd"),
    _s("env", "MY_SERVICE_API_KEY=9x8y7z6w5v4u3t2s", "9x8y7z6w5v4u3t2s"),
    _s("env", "AWS_SECRET_ACCESS_KEY=wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY",
       "wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY"),
    _s("env", "export SLACK_BOT_TOKEN='xoxb-1111-2222-abcdefghij'", "xoxb-1111-2222-abcdefghij"),
    _s("env", "PGPASSWORD=s3cr3t psql -h db -U app", "s3cr3t"),
    _s("env", "./deploy.sh --db-password s3cretValue --verbose", "s3cretValue"),
    _s("env", "STRIPE_SECRET=whsec_abcdefghijklmnop123", "whsec_abcdefghijklmnop123"),
    _s("env", 'REDIS_URL="redis://default:r3disPa55@cache:6379"', "r3disPa55"),
    _s("env", "NPM_TOKEN=npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789", "npm_AbCdEfGhIjKlMnOpQrStUvWxYz0123456789"),
    _s("env", "SENTRY_AUTH_TOKEN = sntrys_abcdef0123456789abcdef", "sntrys_abcdef0123456789abcdef"),
    _s("env", "set OPENROUTER_KEY=sk-or-v1-0123456789abcdef0123456789abcdef", "sk-or-v1-0123456789abcdef0123"),
    _s("env", "GROQ_API_KEY=gsk_abcdefghijklmnopqrstuvwxyz0123456789ABCDEFGHIJKLMN",
       "gsk_abcdefghijklmnopqrstuvwxyz0123456789"),
    # JSON configs and payloads
    _s("json", '{"db": {"host": "db1", "password": "p@55w0rd!"}}', "p@55w0rd!"),
    _s("json", '{"dbPassword": "Winter2024!", "user": "svc"}', "Winter2024!"),
    _s("json", '{"github_token": "ghp_16C7e42F292c6912E7710c838347Ae178B4a"}',
       "ghp_16C7e42F292c6912E7710c838347Ae178B4a"),
    _s("json", '{"auth": {"clientSecret": "Q~8abc.DEF_ghi-JKL"}}', "Q~8abc.DEF_ghi-JKL"),
    _s("json", '{"secretAccessKey": "9drTJvcXLB89EXAMPLELB8923FB892xMFI"}', "9drTJvcXLB89EXAMPLELB8923FB892xMFI"),
    _s("json", '{"sendgrid": "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"}',
       "SG.abcdefghijklmnopqrstuv.abcdefghijklmnopqrstuvwxyz0123456789ABCDEFG"),
    _s("json", '{"webhook": "https://hooks.slack.com/services/T01ABCDEF/B02GHIJKL/abcdefghijklmnopqrstuvwx"}',
       "abcdefghijklmnopqrstuvwx"),
    _s("json", '{"refreshToken": "1//0gAbCdEfGhIjKlMnOp"}', "1//0gAbCdEfGhIjKlMnOp"),
    _s("json", '{"Parameters": [{"Name": "DB_PASSWORD", "Value": "pl4inText!"}]}', "pl4inText!"),
    # HTTP requests
    _s("http", "Cookie: sessionid=abcdef0123456789abcdef; csrftoken=Zz9Yy8Xx7", "abcdef0123456789abcdef",
       "Zz9Yy8Xx7"),
    _s("http", "X-Auth-Token: 7d9f2c1e-aaaa-bbbb-cccc-0123456789ab", "7d9f2c1e-aaaa-bbbb-cccc-0123456789ab"),
    _s("http", "curl -H 'x-api-key: 0123456789abcdef0123' https://api.example.com", "0123456789abcdef0123"),
    _s("http", "GET /v1/items?access_token=EAAGm0PX4ZCpsBAKZA&limit=5", "EAAGm0PX4ZCpsBAKZA"),
    _s("http", "Authorization: Bearer ya29.a0AfH6SMBxyzABCDEFGHIJ", "ya29.a0AfH6SMBxyzABCDEFGHIJ"),
    _s("http", "Set-Cookie: auth=eyJ0eXAiOiJKV1Qi.abc.def; HttpOnly", "eyJ0eXAiOiJKV1Qi.abc.def"),
    _s("http", "curl -u alice:hunter2pass https://api.example.com/v1", "hunter2pass"),
    _s("http", "POST https://discord.com/api/webhooks/123456789012345678/abcdefghijklmnopqrstuvwxyzABCDEFGHIJ",
       "abcdefghijklmnopqrstuvwxyzABCDEFGHIJ"),
    # Python code
    _s("python", 'client = OpenAI(api_key="sk-proj-AbCdEfGhIjKlMnOp")', "sk-proj-AbCdEfGhIjKlMnOp"),
    _s("python", "conn = psycopg2.connect(host='db', password='Tr0ub4dor')", "Tr0ub4dor"),
    _s("python", "SECRET_KEY = 'django-insecure-abc123def456ghi789'", "django-insecure-abc123def456ghi789"),
    _s("python", 'os.environ["HF_TOKEN"] = "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"',
       "hf_AbCdEfGhIjKlMnOpQrStUvWxYz01234567"),
    _s("python", "bot = Bot(token='123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw')",
       "123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsaw"),
    _s("python", "replicate.Client(api_token='r8_abcdefghijklmnopqrstuvwxyz0123456789')",
       "r8_abcdefghijklmnopqrstuvwxyz0123456789"),
    # ordinary texts of the same formats
    _s("env", "MAX_TOKENS=512 TOKEN_LIMIT=4096 PORT=8080"),
    _s("env", "export PATH=/usr/local/bin:$PATH HOME=/home/app"),
    _s("env", "KEY_COUNT=3 SORT_KEY=name PRIMARY_KEY=id"),
    _s("env", "./run.sh --password-file /run/secrets/db --no-password --token-limit 512 --bypass yes"),
    _s("json", '{"prompt_tokens": 40, "completion_tokens": 12, "total_tokens": 52}'),
    _s("json", '{"password_min_length": 12, "token_type": "bearer", "tokens": ["a", "b"]}'),
    _s("json", '{"key": "value", "keys": ["id", "name"], "sort_key": "created_at"}'),
    _s("json", '[{"name": "HOME", "value": "/root"}, {"name": "LOG_LEVEL", "value": "debug"}]'),
    _s("http", "Content-Type: application/json; charset=utf-8"),
    _s("http", "GET /v1/search?q=hotel&page_size=20&sort=price"),
    _s("python", "tokens = tokenizer.encode(text); n_tokens = len(tokens)"),
    _s("python", "def check_password(password: str) -> bool: return len(password) >= 12"),
    _s("python", "if key in cache: return cache[key]"),
]


HELD_OUT: list[Case] = [
    # YAML
    _s("yaml", "database:\n  user: app\n  db_password: Sup3rS3cret!\n", "Sup3rS3cret!"),
    _s("yaml", "openai:\n  apiKey: sk-abcdefghijklmnopqrstuvwx\n", "sk-abcdefghijklmnopqrstuvwx"),
    _s("yaml", "smtp:\n  password: \"mail-pass-2024\"\n", "mail-pass-2024"),
    _s("yaml", "auth:\n  client_secret: 'xYz_123-secret'\n", "xYz_123-secret"),
    _s("yaml", "registry_token: glpat-AbCdEfGhIjKlMnOpQrSt12\n", "glpat-AbCdEfGhIjKlMnOpQrSt12"),
    # TOML and INI
    _s("toml", "[database]\npassword = \"toml-p4ss\"\n", "toml-p4ss"),
    _s("toml", "[pypi]\nusername = __token__\npassword = pypi-AgEIcHlwaS5vcmcCJGE0ZjY2YjQ4LTk0MWItNDNl\n",
       "pypi-AgEIcHlwaS5vcmcCJGE0ZjY2YjQ4LTk0MWItNDNl"),
    _s("ini", "[mysql]\nuser=root\npasswd=r00tPass\n", "r00tPass"),
    _s("ini", "[default]\naws_secret_access_key = je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY\n",
       "je7MtGbClwBF/2Zp9Utk/h3yCo8nvbEXAMPLEKEY"),
    # containers and cloud manifests
    _s("manifest", "environment:\n  - POSTGRES_PASSWORD=composeP4ss\n", "composeP4ss"),
    _s("manifest", "env:\n  - name: API_TOKEN\n    value: k8s-t0ken-value-123\n", "k8s-t0ken-value-123"),
    _s("manifest", "DefaultEndpointsProtocol=https;AccountName=acct;AccountKey=abc123def456ghi789jkl012mno345==;"
       "EndpointSuffix=core.windows.net", "abc123def456ghi789jkl012mno345=="),
    _s("manifest", 'resource "db" {\n  password = "tf-Pa55word"\n}', "tf-Pa55word"),
    _s("manifest", "docker login -u ci --password dckr_pat_AbCdEfGhIjKlMnOpQrSt", "dckr_pat_AbCdEfGhIjKlMnOpQrSt"),
    # log lines
    _s("log", "2024-05-01T10:00:00Z level=info msg=login user=bob password=letmein99 ip=10.0.0.5", "letmein99"),
    _s("log", "DEBUG request headers={'Authorization': 'Bearer abcdef0123456789xyz'}", "abcdef0123456789xyz"),
    _s("log", "connecting to mongodb+srv://svc:m0ngoPa55@cluster0.example.net/db", "m0ngoPa55"),
    _s("log", "WARN retrying with token=ghs_16C7e42F292c6912E7710c838347Ae178B4a",
       "ghs_16C7e42F292c6912E7710c838347Ae178B4a"),
    _s("log", "error: invalid api key AKIAIOSFODNN7EXAMPLE for bucket", "AKIAIOSFODNN7EXAMPLE"),
    # command lines
    _s("cli", "mysql --user=root --password=cl1Pass db", "cl1Pass"),
    _s("cli", "my-tool deploy --api-key 5f4dcc3b5aa765d61d83 --region eu", "5f4dcc3b5aa765d61d83"),
    _s("cli", "psql postgresql://app:pgPa55w0rd@localhost/app", "pgPa55w0rd"),
    _s("cli", "gh auth login --with-token <<< gho_16C7e42F292c6912E7710c838347Ae178B4a",
       "gho_16C7e42F292c6912E7710c838347Ae178B4a"),
    # prose and chat
    _s("prose", "Hi! My password is BlueSky!2024, can you check why login fails?", "BlueSky!2024"),
    _s("prose", "Use the passphrase correct-horse-battery to unlock it.", "correct-horse-battery"),
    _s("prose", "here is my key: sk-ant-api03-ZyXwVuTsRqPoNmLkJiHgFeDcBa98765", "sk-ant-api03-ZyXwVuTsRqPoNmLkJ"),
    _s("prose", "the wifi password: Coffee&Cake42", "Coffee&Cake42"),
    # other languages' code
    _s("code", 'const client = new Client({ apiKey: "xai-abcdefghijklmnopqrstuvwxyz0123456789" });',
       "xai-abcdefghijklmnopqrstuvwxyz0123456789"),
    _s("code", 'String password = "javaPa55!";', "javaPa55!"),
    _s("code", '$env:AZURE_CLIENT_SECRET = "az-cl1ent-s3cret"', "az-cl1ent-s3cret"),
    _s("code", "spring.datasource.password=springPa55", "springPa55"),
    _s("code", 'db.Open("postgres", "user=app password=goPa55word dbname=x")', "goPa55word"),
    # ordinary texts of the same formats
    _s("yaml", "model:\n  max_tokens: 256\n  temperature: 0.2\n"),
    _s("yaml", "keys:\n  - id\n  - name\npassword_policy: strong\n"),
    _s("toml", "[tool.ruff]\nline-length = 120\n"),
    _s("manifest", "ports:\n  - \"8080:80\"\nimage: nginx:1.25\n"),
    _s("log", "2024-05-01T10:00:01Z level=info msg=done tokens_in=512 tokens_out=64 latency_ms=830"),
    _s("log", "user bob reset their password at 10:02 after 3 failed attempts"),
    _s("cli", "git log --oneline --max-count=5"),
    _s("prose", "The token budget is 4,000 tokens; keep the password prompt short."),
    _s("prose", "Please book hotel H07 for $180 on 2024-06-01, ref ABC123."),
    _s("code", "for (const key of Object.keys(map)) { total += map[key]; }"),
    _s("code", "let tokenCount = countTokens(prompt);"),
]


def positives(cases: list[Case]) -> list[Case]:
    return [case for case in cases if case.secrets]


def ordinary(cases: list[Case]) -> list[Case]:
    return [case for case in cases if not case.secrets]
