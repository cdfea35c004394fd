@echo off
rem The `fleetdeck` command of an installed Fleetdeck: the CLI run by the app's own runtime
rem (Electron as Node), so no system Node is needed. Installed as <app>\resources\bin\fleetdeck.cmd.
setlocal
set ELECTRON_RUN_AS_NODE=1
"%~dp0..\..\Fleetdeck.exe" "%~dp0..\app.asar\bin\fleetdeck.js" %*
exit /b %ERRORLEVEL%
