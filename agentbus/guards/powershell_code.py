"""What a PowerShell line (or a Windows tool's) does that bash's words never show.

The guards read a command as bash. A line typed into PowerShell (Claude Code's PowerShell tool,
Codex on Windows) or a Windows tool run from any shell does its harm through names bash has no rule
for: a .NET call (``[Ref].Assembly.GetType('…AmsiUtils')``), a cmdlet's switch
(``Set-MpPreference -DisableRealtimeMonitoring $true``), a registry key (``…\\CurrentVersion\\Run``),
a tool of Windows (``certutil -urlcache``, ``cmdkey /list``), a PowerShell attack tool's function
(``Invoke-Mimikatz``). :func:`judge` reads such a line by those names, each family a pattern of
words that only the harm uses; :func:`looks_like_powershell` says when a line is read so at all.
Every pattern is bounded or anchored: linear in the line.
"""

from __future__ import annotations

import itertools
import re
import shlex

from ..lazy_regex import lazy_compile
from .verdict import (
    ACCOUNT,
    BACKDOOR,
    CREDENTIALS,
    DATA_DESTRUCTION,
    DOWNLOAD_RUN,
    EVIDENCE,
    EXFILTRATION,
    IMPAIR,
    OBFUSCATED,
    PRIVILEGE,
    PROFILE,
    REMOTE_CODE,
    SCHEDULED,
    SERVICE,
    STEALTH_PERSISTENCE,
    SYSTEM_CONFIG,
    UNJUDGED_SCRIPT,
)

__all__ = ["dotnet_calls_as_bash", "judge", "looks_like_powershell"]

_WINDOWS_TOOLS = (
    r"reg|schtasks|certutil|bitsadmin|cmdkey|vaultcmd|wevtutil|vssadmin|wmic|installutil|regsvr32|mshta|"
    r"rundll32|cmd|sc|netsh|msiexec|wbadmin|bcdedit|regasm|"
    r"regsvcs|powershell|pwsh|net|net1|ntdsutil|procdump\d*"
)
_STATEMENT_START = lazy_compile(
    r"(?:^|[;|(\n{]|&&|\|\|)[ \t]*(?:"
    # PowerShell's own syntax at a statement's start: $x = New-Object …, [Type]::Member, & (…), (New-Object …)
    r"\$[\w:]{1,80}[ \t]*=[ \t]*\(?[ \t]*(?:New-Object\b|\[[\w"
    r".]{1,120}\]|(?:Invoke-\w{1,40}|iwr|irm|Get-\w{1,40})\b)|"
    r"\[[\w.]{1,120}\](?:::|\.)|&[ \t]*[(\$'\"]|\([ \t]*New-Object\b|"
    # a function named as PowerShell names them (Verb-Noun, capitalized: Find-LocalAdminAccess), powercat
    r"(?-i:[A-Z][a-z]{1,15}-[A-Z][A-Za-z]{1,60})(?=[ \t]|$)|powercat\b|"
    # a Windows tool, by its name or its path (C:\Windows\…\InstallUtil.exe)
    r"[\"']?(?:\S{0,200}[\\/])?(?:" + _WINDOWS_TOOLS + r")(?:\.exe)?[\"']?(?=[ \t]|$))",
    re.IGNORECASE | re.MULTILINE,
)


def looks_like_powershell(command: str) -> bool:
    """Whether a statement of ``command`` starts as only PowerShell or a Windows tool starts one."""
    return _STATEMENT_START.search(command) is not None


_FAMILIES: list[tuple[str, str, str]] = [
    # AMSI, the scan PowerShell gives every script, switched off in the process
    (
        IMPAIR,
        "switches off AMSI, the malware scan of the scripts PowerShell runs",
        r"AmsiUtils|amsiInitFailed|AmsiScanBuffer|amsiContext|amsiSession|AmsiOpenSession",
    ),
    # Defender's protections off, or folders, extensions, processes excluded from its scans
    (
        IMPAIR,
        "switches off or narrows Microsoft Defender's scanning",
        r"\b(?:Set|Add)-MpPreference\b[^;\n|]{0,300}?-(?:Disable\w{1,40}\b(?![ \t:]{1,5}(?:\$false|0)\b)|"
        r"Exclusion\w{1,20}|(?:PUAProtection|MAPSReporting|Subm"
        r"itSamplesConsent)[ \t:]{1,5}(?:0|\$false|Disabled)\b)|"
        r"\bDisable(?:AntiSpyware|AntiVirus|RealtimeMonitoring|Beh"
        r"aviorMonitoring|OnAccessProtection|ScanOnRealtimeEnable)"
        r"\b[^;\n|]{0,80}?(?:/d[ \t]{1,5}1\b|-Value[ \t]{1,5}1\b)|"
        r"\b(?:Stop-Service|Set-Service|sc(?:\.exe)?[ \t]{1,5}"
        r"(?:stop|config|delete))\b[^;\n|]{0,40}?\bWinDefend\b|"
        r"\b(?:Uninstall-WindowsFeature|Remove-WindowsFeature|D"
        r"isable-WindowsOptionalFeature)\b[^;\n|]{0,80}?Defender",
    ),
    # UAC, the firewall and script-block logging switched off
    (
        IMPAIR,
        "switches off User Account Control",
        r"\b(?:EnableLUA|ConsentPromptBehaviorAdmin)\b[^;\n|]{0,120}?(?:/d[ \t]{1,5}0\b|-Value[ \t]{1,5}0\b)",
    ),
    (
        IMPAIR,
        "switches off the Windows firewall",
        r"\bSet-NetFirewallProfile\b[^;\n|]{0,200}?-Enabled[ \t:]{1,5}(?:False|0|\$false)\b",
    ),
    (
        IMPAIR,
        "switches off PowerShell's script-block or module logging",
        r"\b(?:EnableScriptBlockLogging|EnableModuleLogging|EnableTranscripting)\b[^;\n|]{0,120}?"
        r"(?:/d[ \t]{1,5}0\b|-Value[ \t]{1,5}0\b)|\bcachedGroupPolicySettings\b",
    ),
    (
        IMPAIR,
        "starts PowerShell 2, which has no AMSI and no script-block logging",
        r"\b(?:powershell|pwsh)(?:\.exe)?[ \t]{1,5}(?:-\w{1,2"
        r"0}[ \t]{1,5}){0,4}-v(?:ersion)?[ \t]{1,5}2(?:\.0)?\b",
    ),
    # event logs cleared
    (
        EVIDENCE,
        "clears Windows event logs",
        r"\b(?:Clear-EventLog|Remove-EventLog|Clear-WinEvent)"
        r"\b|\bwevtutil(?:\.exe)?[ \t]{1,5}(?:cl|clear-log)\b|"
        r"\.ClearLog\(|\bRemove-Item\b[^;\n|]{0,120}?(?:HistorySavePath|ConsoleHost_history)",
    ),
    # shadow copies and backups deleted, recovery off: what ransomware does first
    (
        DATA_DESTRUCTION,
        "deletes the shadow copies and backups Windows restores files from",
        r"\bwmic(?:\.exe)?[ \t]{1,5}shadowcopy[ \t]{1,5}dele"
        r"te\b|Win32_ShadowCopy\b[^;\n]{0,200}?(?:\.Delete\(|"
        r"Remove-(?:CimInstance|WmiObject))|\bwbadmin(?:\.exe)?[ \t]{1,5}delete[ \t]{1,5}(?:catalog|backup|"
        r"systemstatebackup)\b|\bbcdedit(?:\.exe)?\b[^;\n|]{0,60}?recoveryenabled[ \t]{1,5}(?:no|off|0)\b",
    ),
    # PowerShell attack tools' functions: credential dumpers, shells, injectors, domain hunters
    (
        CREDENTIALS,
        "runs a credential dumper of PowerShell attack kits",
        r"\b(?:Invoke-(?:Mimikatz|PowerDump|Mimikittenz|NinjaCopy|CredentialInjection|WCMDump|SessionGopher|"
        r"DCSync|Kerberoast|ASREPRoast|Rubeus|Inveigh|Interna"
        r"lMonologue|LSASecret)|Get-(?:PassHashes|GPPPassword|"
        r"GPPAutologon|VaultCredential|LSASecret|Keystrokes|WebCredentials|ChromeDump|UnattendedInstallFile|"
        r"ApplicationHost)|Out-Minidump|Find-GPOPasswords)\b|\b(?:sekurlsa|lsadump|kerberos|dpapi|vault)::\w",
    ),
    (
        BACKDOOR,
        "runs a reverse or bind shell of PowerShell attack kits",
        r"\b(?:Invoke-(?:PowerShellTcp(?:OneLine)?|PowerShellUdp|PowerShellIcmp|PowerShellWmi|ConPtyShell|"
        r"JSRatRundll|PoshRatHttps?)|powercat)\b",
    ),
    (
        BACKDOOR,
        "connects PowerShell's Invoke-Expression to a network socket (a reverse or bind shell)",
        r"\b(?:Net\.Sockets\.(?:TCPClient|TcpListener|UdpClient)|TcpListener\]|TCPClient\()[^\n]{0,2000}?"
        r"\b(?:iex|Invoke-Expression)\b",
    ),
    (
        PRIVILEGE,
        "runs an injector, an escalation or a lateral-movement tool of PowerShell attack kits",
        r"\bInvoke-(?:Shellcode|ReflectivePEInjection|DllInjection|TokenManipulation|PsExec|SMBExec|WMIExec|"
        r"TheHash|SMBClient|AllChecks|PrivescAudit|ServiceAbuse|BypassUAC|EventVwrBypass|FodhelperBypass|"
        r"UserHunter|StealthUserHunter|ShareFinder|FileFinder|Phant0m|PrintNightmare|Nightmare|SharpHound|"
        r"BloodHound)\b|\bFind-LocalAdminAccess\b|\bFind-DomainLocalGroupMember\b|\bWrite-HijackDll\b",
    ),
    # credential stores read: DPAPI, the credential manager, the SAM hive, LSASS's memory
    (
        CREDENTIALS,
        "reads Windows' stored credentials",
        r"\bcmdkey(?:\.exe)?[ \t]{1,5}/list\b|\bvaultcmd(?:\."
        r"exe)?[ \t]{1,5}/list|ProtectedData\]::Unprotect\b|"
        r"\bGet-StoredCredential\b|Windows\.Security\.Credentials\.PasswordVault|"
        r"\breg(?:\.exe)?[ \t]{1,5}save[ \t]{1,5}\S{0,10}(?:H"
        r"KLM|HKEY_LOCAL_MACHINE)\\(?:SAM|SYSTEM|SECURITY)\b|"
        r"comsvcs(?:\.dll)?[\"']?[ \t]*,?[ \t]*#?(?:MiniDump|"
        r"24)\b|\bprocdump\d*(?:\.exe)?\b[^;\n|]{0,80}?lsass|"
        r"\bntdsutil\b[^;\n|]{0,80}?\bifm\b|\bntds\.dit\b",
    ),
    # Windows' own tools misused to fetch or run a payload past application control
    (
        DOWNLOAD_RUN,
        "fetches a file with a Windows tool that malware uses as a downloader",
        r"\bcertutil(?:\.exe)?\b[^;\n|]{0,80}?[-/](?:urlcache|verifyctl)\b|"
        r"\bbitsadmin(?:\.exe)?\b[^;\n|]{0,80}?/(?:transfer|addfile|SetNotifyCmdLine)\b",
    ),
    (
        REMOTE_CODE,
        "runs code through a signed Windows program, past application control",
        r"\b(?:InstallUtil|regsvcs|regasm)(?:\.exe)?\b[^;\n|]{0,120}?[ \t]/U\b|"
        r"\bregsvr32(?:\.exe)?\b[^;\n|]{0,120}?/i:\S|\bmshta(?:\."
        r"exe)?[ \t]{1,5}[\"']?(?:https?:|javascript:|vbscript:)|"
        r"\brundll32(?:\.exe)?\b[^;\n|]{0,40}?(?:javascript:|u"
        r"rl\.dll|ieframe\.dll|shell32\.dll,ShellExec_RunDLL)|"
        r"\bmsiexec(?:\.exe)?\b[^;\n|]{0,60}?/(?:i|package)[ \t]{1,5}[\"']?https?:",
    ),
    # code run from bytes or text made at run time: what runs cannot be read here
    (
        OBFUSCATED,
        "loads a .NET assembly from bytes in memory",
        r"Reflection\.Assembly\]::Load\([ \t]*(?:\[(?:System\.)?Convert\]|\(|\$|\[(?:System\.)?IO\.File\]::"
        r"ReadAllBytes)",
    ),
    (
        PRIVILEGE,
        "compiles Windows API calls that write or run another process's memory (code injection)",
        r"\b(?:VirtualAlloc(?:Ex)?|VirtualProtect(?:Ex)?|WriteProcessMemory|CreateRemoteThread|CreateThread|"
        r"NtCreateThreadEx|QueueUserAPC|RtlMoveMemory|MiniDumpWriteDump|GetDelegateForFunctionPointer)\b"
        r"[^\n]{0,2000}?\bAdd-Type\b|\bAdd-Type\b[^\n]{0,400"
        r"0}?\b(?:VirtualAlloc(?:Ex)?|VirtualProtect(?:Ex)?|"
        r"WriteProcessMemory|CreateRemoteThread|CreateThread"
        r"|NtCreateThreadEx|QueueUserAPC|MiniDumpWriteDump)\b",
    ),
    # persistence: autostart keys, scheduled tasks, WMI subscriptions, Winlogon and debugger hijacks
    (
        STEALTH_PERSISTENCE,
        "hijacks a Windows start-up hook (Winlogon, a debugger, a WMI subscription)",
        r"\\Winlogon\b[^;\n|]{0,80}?\b(?:Userinit|Shell)\b|Image File Execution Options\\[^;\n|]{0,120}?"
        r"\b(?:Debugger|GlobalFlag)\b|\b(?:CommandLineEventConsumer|ActiveScriptEventConsumer|"
        r"__FilterToConsumerBinding)\b",
    ),
    (
        SCHEDULED,
        "makes a program start at every logon (a Run key or the Startup folder)",
        r"\b(?:reg(?:\.exe)?[ \t]{1,5}add|Set-ItemProperty|New-ItemProperty|sp|New-Item)\b[^;\n|]{0,120}?"
        r"\\CurrentVersion\\(?:Run|RunOnce|RunServices|RunServicesOnce|Explorer\\Shell Folders|Policies\\"
        r"Explorer\\Run)\b|\\Start Menu\\Programs\\Startup\\[^;"
        r"\n|]{0,200}?(?:\.lnk|\.bat|\.cmd|\.vbs|\.exe|\.ps1)\b",
    ),
    (
        SCHEDULED,
        "schedules a task",
        r"\bschtasks(?:\.exe)?\b[^;\n|]{0,40}?/create\b|\bRegister-ScheduledTask\b|\bRegister-ScheduledJob\b",
    ),
    (
        SERVICE,
        "installs a Windows service",
        r"\bNew-Service\b|\bsc(?:\.exe)?[ \t]{1,5}(?:\\\\\S{1,80}[ \t]{1,5})?create\b",
    ),
    (
        ACCOUNT,
        "adds a Windows account or an administrator",
        r"\bnet1?(?:\.exe)?[ \t]{1,5}user\b[^;\n|]{0,80}?/add\b|\bNew-LocalUser\b|"
        r"\bnet1?(?:\.exe)?[ \t]{1,5}localgroup[ \t]{1,5}[\"']?(?:administrators|remote desktop users)[\"']?"
        r"[^;\n|]{0,60}?/add\b|\bAdd-LocalGroupMember\b[^;\n|]{0,60}?(?:Administrators|Remote Desktop Users)",
    ),
    (
        SYSTEM_CONFIG,
        "starts a program as administrator (UAC elevation)",
        r"\b(?:Start-Process|saps|start)\b[^;\n|]{0,200}?-Verb[ \t:]{1,5}[\"']?RunAs\b",
    ),
    (
        PROFILE,
        "writes PowerShell's profile, run by every PowerShell session",
        r"\[(?:System\.)?IO\.File\]::(?:Write|Append)All\w{1,10}\([ \t]*\$PROFILE\b",
    ),
]
_JUDGED = [(category, why, lazy_compile(pattern, re.IGNORECASE)) for category, why, pattern in _FAMILIES]

# ``iex $s``, ``iex (...)``, ``& ([scriptblock]::Create($x))``, ``$ExecutionContext.InvokeCommand.
# InvokeScript``: text made at run time, run as code. A here-string stored and invoked is read as its
# script before this (:mod:`.powershell`); a string literal (``iex 'Get-Date'``) is no secret. A program's
# output piped in (``oh-my-posh init pwsh | Invoke-Expression``) is left to the bash rules, as ``kubectl
# completion bash | bash`` is.
_COMPUTED_RUN = lazy_compile(
    r"(?:^|[;&|({\n=]|\bthen\b)[ \t]*(?:\.|&)?[ \t]*(?:"
    r"\(?[ \t]*(?:Invoke-Expression|iex)\b(?:[ \t]{1,5}-Command)?[ \t]*(?:[$(\[]|\"[^\"\n]{0,300}?\$)|"
    r"\$ExecutionContext\.InvokeCommand\.(?:InvokeScript|NewScriptBlock)\b|"
    r"&[ \t]*\$\w{1,80}[ \t]+\(|"  # & $name (…): a command named by a variable, given a computed argument
    r"[.&][ \t]*\(?[ \t]*\[scriptblock\]::Create\b)|"
    r"\[scriptblock\]::Create\([^)\n]{0,400}\)[ \t]*\.Invoke\(",
    re.IGNORECASE | re.MULTILINE,
)
_FETCHES = lazy_compile(
    r"\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm|curl"
    r"|wget|Start-BitsTransfer|DownloadString|DownloadData|"
    r"DownloadFile|GetStringAsync|OpenRead)\b",
    re.IGNORECASE,
)
_RUN_STATEMENT = lazy_compile(
    r"^[ \t]*(?:&|\.[ \t]|\.\\|Start-Process\b|saps\b|start\b|Invoke-Item\b|ii\b|Import-Module\b|ipmo\b|"
    r"(?:powershell|pwsh|cmd)(?:\.exe)?\b|iex\b|Invoke-Expression\b|rundll32\b|regsvr32\b|msiexec\b)|"
    r"-File[ \t]|Get-Content\b[^;\n]{0,200}?\)[ \t]*$",
    re.IGNORECASE,
)
# A file a line downloads to: ``-OutFile F``, ``.DownloadFile(URL, F)``, ``-Destination F``.
_DOWNLOADED_TO = lazy_compile(
    r"(?:-OutFile|-Destination)[ \t:]{1,5}[\"']?([^\s\"';|"
    r")]{1,300})|\.DownloadFile\([^,\n]{1,400},[ \t]*[\"']?"
    r"([^\s\"')]{1,300})",
    re.IGNORECASE,
)
_ARCHIVED = lazy_compile(
    r"\bCompress-Archive\b(?P<args>[^;\n|]{0,400})",
    re.IGNORECASE,
)
_UPLOADED = lazy_compile(
    r"\b(?:Invoke-WebRequest|Invoke-RestMethod|iwr|irm)\b[^;\n"
    r"|]{0,300}?-InFile[ \t:]{1,5}[\"']?([^\s\"';|)]{1,300})",
    re.IGNORECASE,
)
_PRIVATE_SOURCE = lazy_compile(
    r"(?:\$HOME|\$env:USERPROFILE|\$env:APPDATA|\$env:LOCALAPPDATA|~|[A-Za-z]:\\Users\\[^\\\s\"']{1,80})"
    r"(?:[\\/](?:\.ssh|\.aws|\.azure|\.kube|\.gnupg|\.config"
    r"|\.docker|Documents|Desktop|AppData)\b|[\"']?(?=\s|$))",
    re.IGNORECASE,
)


def judge(command: str) -> tuple[str, str] | None:
    """(category, why) for what ``command``, read as PowerShell or a Windows tool's line, does; None
    when none of these families is in it."""
    for category, why, pattern in _JUDGED:
        if pattern.search(command):
            return category, why
    found = _downloaded_and_run(command)
    if found is not None:
        return DOWNLOAD_RUN, f"downloads {found} and runs it"
    found = _archive_uploaded(command)
    if found is not None:
        return EXFILTRATION, f"packs {found} into an archive and uploads it"
    if _COMPUTED_RUN.search(command):
        if _FETCHES.search(command):
            return REMOTE_CODE, "runs as code what it fetches from the network"
        return UNJUDGED_SCRIPT, "runs text made at run time as PowerShell code (Invoke-Expression), unread"
    return None


def _statements(command: str) -> list[str]:
    return [piece for piece in re.split(r"[;\n]", command) if piece.strip()]


def _name(path: str) -> str:
    return re.split(r"[\\/]", path)[-1].lower()


_DOWNLOADS_READ = 8
"""The most downloading statements a line is read for (each looked for in the statements after it)."""


def _downloaded_and_run(command: str) -> str | None:
    """A file a statement downloads that a later statement runs (``iwr URL -OutFile a.ps1; & .\\a.ps1``)."""
    if not _FETCHES.search(command):
        return None
    statements = _statements(command)
    downloads = ((i, s) for i, s in enumerate(statements) if _FETCHES.search(s))
    for index, statement in itertools.islice(downloads, _DOWNLOADS_READ):
        for match in itertools.islice(_DOWNLOADED_TO.finditer(statement), 2):
            name = _name(match.group(1) or match.group(2) or "")
            if not name or name.startswith("$"):
                continue
            for later in statements[index + 1 :]:
                if name in later.lower() and _RUN_STATEMENT.search(later):
                    return name
    return None


def _archive_uploaded(command: str) -> str | None:
    """An archive made of the home or its private folders, then sent with ``-InFile``."""
    archives: dict[str, str] = {}
    for match in _ARCHIVED.finditer(command):
        arguments = match.group("args")
        source = _PRIVATE_SOURCE.search(arguments)
        if source is None:
            continue
        for word in re.findall(r"[^\s\"',]+\.zip\b", arguments, re.IGNORECASE):
            archives[_name(word)] = source.group(0)
    for match in _UPLOADED.finditer(command):
        uploaded = _name(match.group(1))
        if uploaded in archives:
            return archives[uploaded]
        if _PRIVATE_SOURCE.match(match.group(1)) and re.search(
            r"[\\/]\.(?:ssh|aws|azure|kube|gnupg)\b", match.group(1)
        ):
            return match.group(1)
    return None


# .NET's file and process calls with literal arguments, as the bash command that does the same: judged by the
# bash rules (``[IO.Directory]::Delete($HOME, $true)`` is ``rm -rf ~``).
_DOTNET_CALL = lazy_compile(
    r"\[(?:System\.)?(?:IO\.(?P<kind>File|Directory)|Diagnostics\.(?P<process>Process))\]::(?P<method>\w{1,20})"
    r"\([ \t]*(?P<args>[^()\n]{0,600})\)",
    re.IGNORECASE,
)
_LITERAL = re.compile(
    r"'([^'\n]*)'|\"([^\"`\n]*)\"|(\$PROFILE\b|\$HOME\b|\$env:USERPROFILE\b)", re.IGNORECASE
)
_PROFILE_PATH = "~/Documents/PowerShell/Microsoft.PowerShell_profile.ps1"


def _bash_word(text: str) -> str:
    text = re.sub(r"(?i)^(?:\$HOME|\$env:USERPROFILE|\$\{env:USERPROFILE\})(?=[\\/]|$)", "~", text)
    text = re.sub(r"(?i)^\$PROFILE$", _PROFILE_PATH, text).replace("\\", "/")
    if text == "~" or text.startswith("~/"):
        return "~" + shlex.quote(text[1:]) if len(text) > 1 else "~"
    return shlex.quote(text)


def dotnet_calls_as_bash(command: str) -> list[str]:
    """The bash commands ``command``'s .NET file and process calls amount to (literal arguments only)."""
    commands: list[str] = []
    for match in itertools.islice(_DOTNET_CALL.finditer(command), 16):
        literals = [
            m.group(1) if m.group(1) is not None else m.group(2) or m.group(3)
            for m in _LITERAL.finditer(match.group("args"))
        ]
        if not literals:
            continue
        words = [_bash_word(w) for w in literals]
        method = match.group("method").lower()
        if match.group("process"):
            if method == "start":
                commands.append(" ".join([words[0], *literals[1:2]]))
        elif method == "delete":
            recursive = match.group("kind").lower() == "directory" and "$true" in match.group("args").lower()
            commands.append(f"rm {'-rf ' if recursive else ''}{words[0]}")
        elif method.startswith(("writeall", "appendall")):
            commands.append(f"echo text {'>>' if method.startswith('append') else '>'} {words[0]}")
        elif method in ("copy", "move") and len(words) >= 2:
            commands.append(f"{'cp' if method == 'copy' else 'mv'} {words[0]} {words[1]}")
    return commands
