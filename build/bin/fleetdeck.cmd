@echo off
rem The `fleetdeck` command of an installed Fleetdeck: the CLI run by the app's own runtime
rem (Electron as Node), so no system Node is needed. Installed as <app>\resources\bin\fleetdeck.cmd.
rem The arguments never pass through %%* on a command line (cmd would parse them again: & | < > run
rem as commands, ^ vanishes): an echoed rem writes them unparsed to a private file, which the CLI
rem reads and splits itself (bin/windows-args.js).
setlocal DisableDelayedExpansion
set "FLEETDECK_ARGS_DIR="
for /l %%n in (1,1,20) do if not defined FLEETDECK_ARGS_DIR call :claim
if not defined FLEETDECK_ARGS_DIR (
  echo fleetdeck: could not create a folder in %%TEMP%% for the arguments>&2
  exit /b 2
)
set "FLEETDECK_ARGS_FILE=%FLEETDECK_ARGS_DIR%\args.txt"
rem UTF-8 while the line is written, so arguments outside the console's code page survive.
set "FLEETDECK_CP="
for /f "tokens=2 delims=:." %%c in ('chcp') do set "FLEETDECK_CP=%%c"
chcp 65001 >nul
setlocal
for %%a in (1) do (
  set "prompt=$_"
  echo on
  for %%b in (1) do rem * #%*#
  @echo off
) > "%FLEETDECK_ARGS_FILE%"
endlocal
if defined FLEETDECK_CP chcp %FLEETDECK_CP% >nul
set ELECTRON_RUN_AS_NODE=1
rem V8 options read at start (main/heap.ts, RUNTIME_V8_FLAGS): a long-running monitor needs them.
"%~dp0..\..\Fleetdeck.exe" --no-memory-reducer --retain-maps-for-n-gc=16 "%~dp0..\app.asar\bin\fleetdeck.js"
set "FLEETDECK_EXIT=%ERRORLEVEL%"
rd /s /q "%FLEETDECK_ARGS_DIR%" >nul 2>&1
exit /b %FLEETDECK_EXIT%

:claim
set "FLEETDECK_TRY=%TEMP%\fleetdeck-args-%RANDOM%%RANDOM%%RANDOM%"
rem md fails when the folder exists: a folder another process made first is never used.
md "%FLEETDECK_TRY%" >nul 2>&1 && set "FLEETDECK_ARGS_DIR=%FLEETDECK_TRY%"
exit /b 0
